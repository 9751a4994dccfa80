/**
 * The read shortcuts of metric queries change no answer. On random lines (logfmt with repeated
 * keys, JSON, broken lines) with random structured metadata (names equal to parsed keys, to
 * stream labels, to names LogQL normalizes, `__error__`) and random metric queries with
 * parsers, the answer (or the error) read from a cursor that names each block's metadata
 * (`metadataNames`, so blocks the query cannot see metadata in are read without it) and
 * rewrites its one line buffer on every `next()` (scratch lines, as `transientLines` allows),
 * or shows lines as ranges of one buffer per block (read in place by the JSON route), is
 * exactly the answer read from a cursor with none of these.
 */
import { type Labels, parseLabels } from '@logsvc/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairsJsonLine } from '../../testing/parser-inputs';
import { runQuery } from '../query';
import type { EntryCursor, LogSource } from '../source';

const S = 1_000_000_000n;
const T0 = 1_700_000_000n * S;

const KEYS = ['level', 'app', 'status', 'path', 'took', 'latency_ms', 'a'] as const;
const VALUES = ['info', 'error', '200', '500', '42', '1.5', '250ms', 'x y', ''] as const;
const key = fc.constantFrom(...KEYS);
const value = fc.constantFrom(...VALUES);
const pairs = fc.array(fc.tuple(key, value), { maxLength: 5 });

/** Repeated keys on purpose: hints and shortcuts must agree on which value wins. */
const logfmtLine = pairs.map((ps) =>
  ps.map(([k, v]) => (v.includes(' ') || v === '' ? `${k}="${v}"` : `${k}=${v}`)).join(' '),
);
const jsonLine = pairsJsonLine(pairs, key);
const line = fc.oneof(
  logfmtLine,
  jsonLine,
  fc.constantFrom('plain text', 'status=500 a==b', 'GET /x 500 took=3s', 'level="unterminated'),
);

/** Metadata names: parsed keys, a stream label (`app`), names LogQL normalizes, errors. */
const META_NAMES = [
  'level',
  'detected_level',
  'app',
  'status',
  'trace.id',
  'level_extracted',
  'latency_ms',
  '__error__',
  'service.name',
] as const;
const metadata: fc.Arbitrary<Labels> = fc.oneof(
  { weight: 2, arbitrary: fc.constant([]) },
  {
    weight: 3,
    arbitrary: fc.uniqueArray(
      fc.record({ name: fc.constantFrom(...META_NAMES), value: fc.constantFrom('info', 'e', '7') }),
      { minLength: 1, maxLength: 3, selector: (p) => p.name },
    ),
  },
);

interface Entry {
  readonly line: string;
  readonly sm: Labels;
}
const entry: fc.Arbitrary<Entry> = fc.record({ line, sm: metadata });

const parser = fc.constantFrom(
  '| json',
  '| logfmt',
  '| logfmt --strict',
  '| logfmt --keep-empty',
  '| regexp "status=(?P<status>[0-9]+)"',
  '| pattern "<_> <path> <status> <_>"',
  '| json s="status", level',
  '| logfmt lvl="level", status',
  '| logfmt | json',
  '| decolorize | logfmt',
);
const filter = fc.constantFrom(
  '',
  '| status="500"',
  '| latency_ms > 1',
  '| took > 1s',
  '| detected_level="info"',
  '| level="error" or a!=""',
  '| __error__=""',
  '| drop __error__, __error_details__',
  '| keep level, status',
  '| drop detected_level="e"',
  '| label_format lvl=level',
  '| label_format p="{{.path}}"',
  '| line_format "{{.level}} {{.detected_level}}"',
  // Every label's name: metadata a template ranges over shows in the line's bytes.
  '| line_format "{{range $k, $v := .}}{{$k}} {{end}}"',
  '| label_format all="{{range $k, $v := .}}{{$k}}{{end}}" | keep all',
);
const groupName = fc.constantFrom(
  'level',
  'detected_level',
  'level_extracted',
  'status',
  'app',
  'trace_id',
  'service_name',
  'lvl',
  '__error__',
);
const rangeOp = fc.constantFrom('count_over_time', 'bytes_over_time', 'sum_over_time');

const query = fc
  .record({
    parser,
    filter,
    rangeOp,
    unwrap: fc.constantFrom('status', 'latency_ms', 'duration(took)'),
    groups: fc.uniqueArray(groupName, { maxLength: 2 }),
    outer: fc.constantFrom('sum by', 'sum without', 'sum', 'none'),
  })
  .map(({ parser, filter, rangeOp, unwrap, groups, outer }) => {
    const unwrapped = rangeOp === 'sum_over_time';
    const inner =
      `${rangeOp}({app=~".+"} ${parser} ${filter}` +
      `${unwrapped ? ` | unwrap ${unwrap}` : ''} [30s])`;
    if (outer === 'none') return inner;
    if (outer === 'sum') return `sum(${inner})`;
    return `${outer} (${groups.join(', ')}) (${inner})`;
  });

/**
 * How a test cursor shows lines: each in a buffer of its own (`plain`, naming no metadata),
 * through one buffer rewritten on every `next()` (`scratch`), or as ranges of one buffer per
 * block, a new buffer each block and the one left behind overwritten (`block`, as a columnar
 * block's lines read in place). The last two name each block's metadata.
 */
type LineMode = 'plain' | 'scratch' | 'block';

/**
 * A stream's entries, one second apart, cut into blocks of `blocks` entries, each naming its
 * metadata with `extra` names that no entry of it carries (names are a superset).
 */
class Cursor implements EntryCursor {
  private i = -1;
  private readonly shared = Buffer.alloc(4096);
  private view = Buffer.alloc(0);
  private source = Buffer.alloc(0);
  private start = 0;
  private readonly names: (readonly string[])[] = [];

  constructor(
    private readonly entries: readonly Entry[],
    private readonly blocks: number,
    extra: readonly string[],
    private readonly mode: LineMode = 'scratch',
  ) {
    for (let b = 0; b * blocks < entries.length; b++) {
      const names = new Set(extra);
      for (const e of entries.slice(b * blocks, (b + 1) * blocks)) {
        for (const p of e.sm) names.add(p.name);
      }
      this.names.push([...names]);
    }
  }

  next(): boolean {
    this.shared.fill(0x7a);
    if (++this.i >= this.entries.length) return false;
    const line = Buffer.from(this.entries[this.i].line);
    if (this.mode === 'plain') {
      this.view = line;
      this.source = line;
      this.start = 0;
    } else if (this.mode === 'scratch') {
      line.copy(this.shared);
      this.view = this.shared.subarray(0, line.length);
      this.source = this.view;
      this.start = 0;
    } else {
      if (this.i % this.blocks === 0) {
        this.source.fill(0x7a);
        const lines = this.entries.slice(this.i, this.i + this.blocks).map((e) => e.line);
        this.source = Buffer.from(lines.join(''));
        this.start = 0;
      } else this.start += this.view.length;
      this.view = this.source.subarray(this.start, this.start + line.length);
    }
    return true;
  }
  get timestampNs(): bigint {
    return T0 + BigInt(this.i + 1) * S;
  }
  get line(): Buffer {
    return this.view;
  }
  get lineSource(): Buffer {
    return this.source;
  }
  get lineStart(): number {
    return this.start;
  }
  get lineEnd(): number {
    return this.start + this.view.length;
  }
  get structuredMetadata(): Labels {
    return this.entries[this.i].sm;
  }
  get metadataNames(): readonly string[] | undefined {
    return this.mode !== 'plain' ? this.names[Math.floor(this.i / this.blocks)] : undefined;
  }
}

const STREAMS = ['{app="web", level="warn"}', '{app="api"}'];

function source(
  streams: readonly Entry[][],
  blocks: number,
  extra: readonly string[],
  mode: LineMode,
): LogSource {
  return {
    select: () =>
      Promise.resolve(
        streams.map((entries, s) => ({
          labels: parseLabels(STREAMS[s]),
          entries: new Cursor(entries, blocks, extra, mode),
        })),
      ),
  };
}

async function answer(q: string, src: LogSource, count: number): Promise<string> {
  const end = T0 + BigInt(count + 1) * S;
  try {
    const a = await runQuery({
      query: q,
      kind: 'range',
      startNs: T0 + 10n * S,
      endNs: end,
      stepMs: 10_000,
      limit: 100,
      direction: 'forward',
      tenants: 't',
      source: src,
    });
    return JSON.stringify(a.result);
  } catch (err) {
    return `error ${(err as Error).message}`;
  }
}

describe('metric queries read without hidden metadata and with scratch lines', () => {
  it('answer exactly as reading every entry whole', async () => {
    const stream = fc.array(entry, { minLength: 1, maxLength: 30 });
    await fc.assert(
      fc.asyncProperty(
        query,
        fc.tuple(stream, stream),
        fc.integer({ min: 1, max: 5 }),
        fc.subarray(['service.name', 'level', '__error__', 'a']),
        async (q, streams, blocks, extra) => {
          const count = Math.max(streams[0].length, streams[1].length);
          const want = await answer(q, source(streams, blocks, [], 'plain'), count);
          for (const mode of ['scratch', 'block'] as const) {
            const got = await answer(q, source(streams, blocks, extra, mode), count);
            expect(got, `${mode}: ${q}`).toBe(want);
          }
        },
      ),
      { numRuns: 600 },
    );
  }, 120_000);

  it('hides metadata from queries that cannot see it', async () => {
    // The shortcut is taken: a grouping by a parsed label ignores `detected_level` metadata.
    let read = 0;
    const sm = [{ name: 'detected_level', value: 'info' }];
    const entries: Entry[] = [{ line: 'level=error', sm }];
    class Counting extends Cursor {
      override get structuredMetadata(): Labels {
        read++;
        return super.structuredMetadata;
      }
    }
    const src: LogSource = {
      select: () =>
        Promise.resolve([
          { labels: parseLabels('{app="api"}'), entries: new Counting(entries, 1, [], 'block') },
        ]),
    };
    const q = (g: string) => `sum by (${g}) (count_over_time({app="api"} | logfmt [1m]))`;
    expect(await answer(q('level'), src, 1)).toContain('{"name":"level","value":"error"}');
    expect(read).toBe(0);
    expect(await answer(q('detected_level'), src, 1)).toContain(
      '{"name":"detected_level","value":"info"}',
    );
    expect(read).toBeGreaterThan(0);
  });
});
