import { EMPTY_LABELS, parseLabels } from '@logsvc/api';
import { describe, expect, it } from 'vitest';
import { runQuery } from '../query';
import type { EntryCursor, LogSource, SelectParams } from '../source';

const S = 1_000_000_000n;
const T0 = 1_700_000_000n * S;
const LINES = [
  'GET /a 200 upstream timeout',
  '{"level":"error","msg":"upstream timeout"}',
  'level=info msg=ok',
  'level=3 msg="slow call" took=12',
  'POST /b 500',
  'upstream timeout again',
];

/**
 * Entries whose line views, when `reuse` is set, live only until the next `next()`: every line
 * is written into one shared buffer, the previous one overwritten (as scratch line buffers).
 */
class Cursor implements EntryCursor {
  private i = -1;
  private readonly shared = Buffer.alloc(256);
  private view = Buffer.alloc(0);
  constructor(private readonly reuse: boolean) {}
  next(): boolean {
    this.shared.fill(0x7a);
    if (++this.i >= LINES.length) return false;
    const line = Buffer.from(LINES[this.i]);
    if (this.reuse) {
      line.copy(this.shared);
      this.view = this.shared.subarray(0, line.length);
    } else this.view = line;
    return true;
  }
  get timestampNs(): bigint {
    return T0 + BigInt(this.i) * S;
  }
  get line(): Buffer {
    return this.view;
  }
  get lineSource(): Buffer {
    return this.view;
  }
  get lineStart(): number {
    return 0;
  }
  get lineEnd(): number {
    return this.view.length;
  }
  get structuredMetadata() {
    return EMPTY_LABELS;
  }
}

/** Honours `transientLines` (when `reuse`) with the shared buffer; records what each select asked. */
function source(asked: SelectParams[], reuse: boolean): LogSource {
  return {
    select: (p) => {
      asked.push(p);
      return Promise.resolve([
        {
          labels: parseLabels('{app="a"}'),
          entries: new Cursor(reuse && p.transientLines === true),
        },
      ]);
    },
  };
}

async function run(query: string, asked: SelectParams[], reuse = true): Promise<string> {
  const end = T0 + 10n * S;
  const answer = await runQuery({
    query,
    kind: query.includes('over_time') || query.includes('rate(') ? 'instant' : 'range',
    startNs: query.includes('over_time') || query.includes('rate(') ? end : T0,
    endNs: end,
    stepMs: 1000,
    limit: 100,
    direction: 'forward',
    tenants: 't',
    source: source(asked, reuse),
  });
  return JSON.stringify(answer.result, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
}

describe('transientLines', () => {
  it('is asked for by counts whose pipeline only filters lines, and their answers hold', async () => {
    for (const [query, want] of [
      ['sum(count_over_time({app="a"} |= "upstream timeout" [1m]))', 3],
      ['sum(count_over_time({app="a"} != "timeout" |~ "GET|POST" [1m]))', 1],
      ['sum(bytes_over_time({app="a"} |= "timeout" [1m]))', 27 + 42 + 22],
    ] as const) {
      const asked: SelectParams[] = [];
      const answer = await run(query, asked);
      expect(asked.map((p) => p.transientLines)).toEqual([true]);
      expect(JSON.parse(answer).samples[0].value).toBe(want);
    }
  });

  it('is asked for by counts with parsers, formatters or unwrap, and their answers hold', async () => {
    for (const query of [
      'sum by (level) (count_over_time({app="a"} |= "timeout" | json | __error__="" [1m]))',
      'sum by (level) (count_over_time({app="a"} | logfmt [1m]))',
      'sum(bytes_over_time({app="a"} | line_format "{{__line__}}!" |= "x" [1m]))',
      'sum by (msg) (count_over_time({app="a"} | label_format msg="{{__line__}}" [1m]))',
      'sum(sum_over_time({app="a"} | logfmt | unwrap level | __error__="" [1m]))',
      'sum by (m) (count_over_time({app="a"} | regexp "(?P<m>[a-z]+ [0-9]+)" [1m]))',
      'sum by (path) (count_over_time({app="a"} | pattern "<_> <path> <_>" [1m]))',
    ]) {
      const asked: SelectParams[] = [];
      const answer = await run(query, asked);
      expect(asked.map((p) => p.transientLines)).toEqual([true]);
      // The same query over lines each in a buffer of its own.
      expect(answer, query).toBe(await run(query, [], false));
    }
  });

  it('is asked for by log queries, and their lines hold', async () => {
    for (const query of [
      '{app="a"} |= "timeout"',
      '{app="a"}',
      '{app="a"} | logfmt | line_format "{{.msg}}"',
      '{app="a"} | json | __error__=""',
    ]) {
      const asked: SelectParams[] = [];
      const answer = await run(query, asked);
      expect(asked.map((p) => p.transientLines)).toEqual([true]);
      expect(answer, query).toBe(await run(query, [], false));
      expect(answer).not.toContain('zzz');
    }
  });
});
