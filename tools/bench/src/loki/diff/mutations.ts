// Random mutations of the corpus queries (a character or a few deleted, a LogQL token inserted),
// for `npm run diff:loki -- --mutations=N`: broken and odd queries, to compare how both servers
// refuse or answer them.
import type { DiffQuery } from './compare';

/** Tokens inserted at random places: punctuation, operators, keywords, literals. */
const TOKENS = [
  ...['(', ')', '{', '}', '[', ']', '|', '=', '~', '!', ',', '"', '`', ' ', '\\', '\n', '#'],
  ...['|=', '!=', '|~', '>', '<', '-', '+', '*', '/', '%', '^', '.', '@'],
  ...['by', 'without', 'sum', 'rate', 'json', 'logfmt', 'and', 'or', 'unless', 'bool', 'on'],
  ...['ignoring', 'group_left', 'offset', 'label_format', 'line_format', 'unwrap', 'keep'],
  ...['drop', '__error__', 'ip(', '"{{.a}}"', '5m', '1h', '1', '0.5', '1e3', '0x10', 'NaN'],
];

/** A small deterministic generator (a linear congruential one), so a seed repeats a run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

function mutate(query: string, next: () => number): string {
  let s = query;
  const edits = 1 + Math.floor(next() * 2);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(next() * (s.length + 1));
    const r = next();
    if (r < 0.35) s = s.slice(0, at) + s.slice(at + 1);
    else if (r < 0.75)
      s = s.slice(0, at) + TOKENS[Math.floor(next() * TOKENS.length)] + s.slice(at);
    else s = s.slice(0, at) + s.slice(at + 1 + Math.floor(next() * 6));
  }
  return s;
}

/** `count` distinct mutations of the range queries among `queries` (the corpus's log and metric queries). */
export function mutatedQueries(
  queries: readonly DiffQuery[],
  count: number,
  seed: number,
): DiffQuery[] {
  const sources = queries.filter((q) => q.query !== undefined && q.path === undefined && !q.push);
  const next = random(seed);
  const seen = new Set(sources.map((q) => q.query));
  const out: DiffQuery[] = [];
  for (let tries = 0; out.length < count && tries < count * 10; tries++) {
    const source = sources[Math.floor(next() * sources.length)];
    const query = mutate(source.query!, next);
    if (seen.has(query)) continue;
    seen.add(query);
    out.push({ query, params: { limit: 5 } });
  }
  return out;
}
