/**
 * Reads conformance fixtures (`testdata/*.lqt`, format in README.md): data sets of log
 * entries and the queries to evaluate over them with their expected answers.
 */
import { labelsToString, parseLabels, readGoString, type Labels } from '@logsvc/api';
import { timeParseDuration } from '@logsvc/gocompat';

export interface FixtureEntry {
  /** Canonical stream labels, empty values dropped (as push does). */
  readonly labels: Labels;
  /** Nanoseconds after the fixture epoch. */
  readonly offsetNs: bigint;
  readonly line: string;
  readonly metadata?: Labels;
}

interface EvalBase {
  readonly query: string;
  /** 1-based line of the eval command in its file. */
  readonly lineNo: number;
  /** Expected lines, comments stripped, as written. */
  readonly expected: readonly string[];
}

export type FixtureEval =
  | (EvalBase & { readonly kind: 'instant'; readonly atNs: bigint })
  | (EvalBase & {
      readonly kind: 'range';
      readonly fromNs: bigint;
      readonly toNs: bigint;
      readonly stepNs: bigint;
    })
  | (EvalBase & {
      readonly kind: 'logs';
      readonly fromNs: bigint;
      readonly toNs: bigint;
      readonly direction: 'forward' | 'backward';
      readonly limit: number;
      readonly intervalNs: bigint;
      readonly categorized: boolean;
    });

export interface FixtureScenario {
  readonly title: string;
  readonly entries: readonly FixtureEntry[];
  readonly evals: readonly FixtureEval[];
}

export class FixtureSyntaxError extends Error {
  constructor(file: string, lineNo: number, message: string) {
    super(`${file}:${lineNo}: ${message}`);
    this.name = 'FixtureSyntaxError';
  }
}

/** Default `limit` of `logs` evals, as the HTTP API's. */
export const DEFAULT_LOG_LIMIT = 100;

/** `10s` (Go duration) → bigint nanoseconds. */
export function durationNs(text: string): bigint {
  return timeParseDuration(text);
}

/** Removes a `#` comment that follows whitespace outside quotes, and trailing blanks. */
export function stripComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote !== undefined) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === '`') {
      quote = c;
    } else if (c === '#' && (i === 0 || line[i - 1] === ' ' || line[i - 1] === '\t')) {
      return line.slice(0, i).trimEnd();
    }
  }
  return line.trimEnd();
}

/** Reads `{...}` starting at `pos` (quotes respected); returns the text and the end offset. */
export function readBraces(text: string, pos: number): { text: string; end: number } {
  if (text[pos] !== '{') throw new Error(`expected "{" at ${pos}`);
  let i = pos + 1;
  while (i < text.length && text[i] !== '}') {
    if (text[i] === '"' || text[i] === '`') i = readGoString(text, i).end;
    else i++;
  }
  if (i >= text.length) throw new Error('missing "}"');
  return { text: text.slice(pos, i + 1), end: i + 1 };
}

/** A label set as written (`{b="2", a="1"}`) in canonical form. */
export function canonicalLabels(text: string): string {
  return labelsToString(parseLabels(text));
}

export function parseFixture(file: string, source: string): FixtureScenario[] {
  return new FixtureParser(file, source.split('\n')).parse();
}

interface Scenario {
  title: string;
  entries: FixtureEntry[];
  evals: FixtureEval[];
}

class FixtureParser {
  private i = 0;
  private readonly scenarios: Scenario[] = [];

  constructor(
    private readonly file: string,
    private readonly lines: readonly string[],
  ) {}

  parse(): FixtureScenario[] {
    while (this.i < this.lines.length) {
      const raw = this.lines[this.i];
      const line = stripComment(raw);
      const lineNo = ++this.i;
      if (line.trim() === '') continue;
      if (/^\s/.test(line)) this.fail(lineNo, 'indented line outside a block');
      const [command, rest] = splitWord(line);
      switch (command) {
        case 'clear':
          this.scenarios.push({ title: rest, entries: [], evals: [] });
          break;
        case 'data':
          this.readData(lineNo);
          break;
        case 'at':
        case 'over':
        case 'logs':
          this.current(lineNo).evals.push(this.readEval(command, rest, lineNo));
          break;
        default:
          this.fail(lineNo, `unknown command ${JSON.stringify(command)}`);
      }
    }
    return this.scenarios;
  }

  private current(lineNo: number): Scenario {
    const s = this.scenarios.at(-1);
    if (s === undefined) this.fail(lineNo, 'eval before the first "clear"');
    return s;
  }

  private block(): Array<{ text: string; lineNo: number }> {
    const out: Array<{ text: string; lineNo: number }> = [];
    while (this.i < this.lines.length) {
      const raw = this.lines[this.i];
      if (!/^\s/.test(raw) || raw.trim() === '') break;
      this.i++;
      const text = stripComment(raw).trim();
      if (text !== '') out.push({ text, lineNo: this.i });
    }
    return out;
  }

  private readData(lineNo: number): void {
    const scenario = this.current(lineNo);
    for (const { text, lineNo: n } of this.block()) {
      try {
        scenario.entries.push(...parseDataLine(text));
      } catch (e) {
        this.fail(n, (e as Error).message);
      }
    }
  }

  private readEval(command: string, rest: string, lineNo: number): FixtureEval {
    const expected = this.block().map((b) => b.text);
    try {
      if (command === 'at') {
        const [at, query] = splitWord(rest);
        return { kind: 'instant', atNs: durationNs(at), query, lineNo, expected };
      }
      const [span, afterSpan] = splitWord(rest);
      const [from, to] = parseSpan(span);
      if (command === 'over') {
        const m = /^step\s+(\S+)\s+(.*)$/s.exec(afterSpan);
        if (m === null) throw new Error('expected "step <duration> <query>"');
        const stepNs = durationNs(m[1]);
        return { kind: 'range', fromNs: from, toNs: to, stepNs, query: m[2], lineNo, expected };
      }
      return { ...parseLogOptions(afterSpan), fromNs: from, toNs: to, lineNo, expected };
    } catch (e) {
      this.fail(lineNo, (e as Error).message);
    }
  }

  private fail(lineNo: number, message: string): never {
    throw new FixtureSyntaxError(this.file, lineNo, message);
  }
}

function splitWord(text: string): [string, string] {
  const t = text.trim();
  const sp = t.search(/\s/);
  return sp < 0 ? [t, ''] : [t.slice(0, sp), t.slice(sp).trim()];
}

function parseSpan(span: string): [bigint, bigint] {
  const parts = span.split('..');
  if (parts.length !== 2) throw new Error(`expected <from>..<to>, got ${JSON.stringify(span)}`);
  return [durationNs(parts[0]), durationNs(parts[1])];
}

function parseLogOptions(text: string): {
  kind: 'logs';
  direction: 'forward' | 'backward';
  limit: number;
  intervalNs: bigint;
  categorized: boolean;
  query: string;
} {
  const [direction, afterDirection] = splitWord(text);
  let rest = afterDirection;
  if (direction !== 'forward' && direction !== 'backward') {
    throw new Error(`expected forward or backward, got ${JSON.stringify(direction)}`);
  }
  let limit = DEFAULT_LOG_LIMIT;
  let intervalNs = 0n;
  let categorized = false;
  for (;;) {
    const [word, after] = splitWord(rest);
    if (word === 'limit' || word === 'interval') {
      const [value, tail] = splitWord(after);
      if (word === 'limit') limit = Number(value);
      else intervalNs = durationNs(value);
      rest = tail;
    } else if (word === 'categorized') {
      categorized = true;
      rest = after;
    } else {
      return { kind: 'logs', direction, limit, intervalNs, categorized, query: rest };
    }
  }
}

/**
 * `{labels} "<line>" <time>[+<step>x<count>] [meta{k="v", ...}]`; `$i` in the line is the
 * index of the generated entry (`$$` is a literal `$`).
 */
export function parseDataLine(text: string): FixtureEntry[] {
  const sel = readBraces(text, 0);
  const labels = parseLabels(sel.text).filter((l) => l.value !== '');
  let pos = skipBlanks(text, sel.end);
  const str = readGoString(text, pos);
  pos = skipBlanks(text, str.end);
  const timeEnd = text.slice(pos).search(/\s|$/) + pos;
  const { startNs, stepNs, count } = parseRepeat(text.slice(pos, timeEnd));
  pos = skipBlanks(text, timeEnd);
  let metadata: Labels | undefined;
  if (text.startsWith('meta{', pos)) {
    const m = readBraces(text, pos + 4);
    metadata = parseLabels(m.text);
    pos = skipBlanks(text, m.end);
  }
  if (pos < text.length) throw new Error(`unexpected ${JSON.stringify(text.slice(pos))}`);
  const out: FixtureEntry[] = [];
  for (let i = 0; i < count; i++) {
    const line = str.value.replace(/\$(\$|i)/g, (_, c: string) => (c === '$' ? '$' : String(i)));
    out.push({ labels, offsetNs: startNs + BigInt(i) * stepNs, line, metadata });
  }
  return out;
}

/** `10s` → one entry; `10s+5sx4` → 4 entries at 10s, 15s, 20s, 25s. */
function parseRepeat(text: string): { startNs: bigint; stepNs: bigint; count: number } {
  const m = /^([^+]+)(?:\+([^x]+)x(\d+))?$/.exec(text);
  if (m === null) throw new Error(`bad time ${JSON.stringify(text)}`);
  return {
    startNs: durationNs(m[1]),
    stepNs: m[2] === undefined ? 0n : durationNs(m[2]),
    count: m[3] === undefined ? 1 : Number(m[3]),
  };
}

function skipBlanks(text: string, pos: number): number {
  while (text[pos] === ' ' || text[pos] === '\t') pos++;
  return pos;
}
