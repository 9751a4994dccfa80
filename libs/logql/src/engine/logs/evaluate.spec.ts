import { describe, expect, it } from 'vitest';
import { labelsToString } from '@logsvc/api';
import type { LogSelectorExpr } from '../../syntax/ast';
import { parseExpr } from '../../syntax/parser';
import { QueryCanceledError } from '../metrics/errors';
import type { LogSource } from '../source';
import { MemorySource, type MemoryStream } from '../sources/memory-source';
import { newQueryStats, type QueryStats } from '../stats';
import { evaluateLogQuery, type LogQueryParams } from './evaluate';

const S = 1_000_000_000n;

function logExpr(query: string): LogSelectorExpr {
  const e = parseExpr(query);
  if (e.kind !== 'LogSelectorExpr') throw new Error('not a log query');
  return e;
}

/** Runs a log query; each result stream printed as `labels ts:line, ts:line` (ts in s). */
async function query(
  source: LogSource,
  q: string,
  opts: Partial<LogQueryParams> = {},
  stats: QueryStats = newQueryStats(),
): Promise<string[]> {
  const r = await evaluateLogQuery(
    logExpr(q),
    { tenant: 't', startNs: 0n, endNs: 1000n * S, limit: 100, direction: 'backward', ...opts },
    source,
    stats,
  );
  return r.streams.map(
    (s) =>
      `${labelsToString(s.labels)} ` +
      s.entries.map(([ts, line]) => `${Number(ts / S)}:${line}`).join(', '),
  );
}

/** A stream with one entry per second starting at `from`. */
function stream(labels: string, lines: string[], from = 1, every = 1): MemoryStream {
  return {
    labels,
    entries: lines.map((line, i) => ({ timestampNs: BigInt(from + i * every) * S, line })),
  };
}

describe('evaluateLogQuery: limit, direction, interval, range', () => {
  const source = new MemorySource([
    stream('{app="api"}', ['a1', 'a2', 'a3', 'a4'], 1, 2), // 1 3 5 7
    stream('{app="web"}', ['w1', 'w2', 'w3', 'w4'], 2, 2), // 2 4 6 8
  ]);

  it('backward returns the newest entries across streams, newest first', async () => {
    expect(await query(source, '{app=~".+"}', { limit: 3 })).toEqual([
      '{app="api"} 7:a4',
      '{app="web"} 8:w4, 6:w3',
    ]);
  });

  it('forward returns the oldest entries, oldest first', async () => {
    expect(await query(source, '{app=~".+"}', { limit: 3, direction: 'forward' })).toEqual([
      '{app="api"} 1:a1, 3:a2',
      '{app="web"} 2:w1',
    ]);
  });

  it('selects [start, end): the end is exclusive', async () => {
    expect(await query(source, '{app="api"}', { startNs: 3n * S, endNs: 7n * S })).toEqual([
      '{app="api"} 5:a3, 3:a2',
    ]);
  });

  it('interval keeps the first entry, then entries at least interval apart across streams', async () => {
    expect(
      await query(source, '{app=~".+"}', { direction: 'forward', intervalNs: 3n * S }),
    ).toEqual(['{app="api"} 1:a1, 7:a4', '{app="web"} 4:w2']);
    expect(await query(source, '{app=~".+"}', { intervalNs: 3n * S })).toEqual([
      '{app="api"} 5:a3',
      '{app="web"} 8:w4, 2:w1',
    ]);
  });

  it('a zero limit or an empty range returns no streams', async () => {
    expect(await query(source, '{app="api"}', { limit: 0 })).toEqual([]);
    expect(await query(source, '{app="api"}', { startNs: 5n * S, endNs: 5n * S })).toEqual([]);
  });

  it('stops reading once the limit is reached', async () => {
    const big = new MemorySource([
      stream(
        '{app="big"}',
        Array.from({ length: 1000 }, (_, i) => `line ${i}`),
      ),
    ]);
    const stats = newQueryStats();
    expect(await query(big, '{app="big"}', { limit: 2 }, stats)).toEqual([
      '{app="big"} 999:line 998, 998:line 997',
    ]);
    expect(stats.querier.store.chunk.decompressedLines).toBeLessThan(10);
  });

  it('cancels a long scan that keeps no lines once the signal aborts', async () => {
    const many = new MemorySource([
      stream(
        '{app="many"}',
        Array.from({ length: 100_000 }, () => 'nothing to see'),
      ),
    ]);
    const ac = new AbortController();
    setImmediate(() => ac.abort());
    await expect(
      query(many, '{app="many"} |= "needle"', { signal: ac.signal, endNs: 200_000n * S }),
    ).rejects.toBeInstanceOf(QueryCanceledError);
  });

  it('breaks timestamp ties by label string', async () => {
    const tied = new MemorySource([
      stream('{app="b"}', ['from b']),
      stream('{app="a"}', ['from a']),
    ]);
    expect(await query(tied, '{app=~"a|b"}', { limit: 1, direction: 'forward' })).toEqual([
      '{app="a"} 1:from a',
    ]);
    expect(await query(tied, '{app=~"a|b"}', { limit: 1 })).toEqual(['{app="a"} 1:from a']);
  });

  it('stops with QueryCanceledError when the signal is aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(query(source, '{app="api"}', { signal: ac.signal })).rejects.toBeInstanceOf(
      QueryCanceledError,
    );
  });
});

describe('evaluateLogQuery: pipelines and result label sets', () => {
  const source = new MemorySource([
    stream('{app="api", env="prod"}', [
      'level=info msg="started" took=12ms',
      'level=error msg="db down" took=2s status=500',
      'level=info msg="request" took=40ms status=200',
      'level=debug msg="cache miss"',
    ]),
    stream('{app="json"}', [
      '{"level":"warn","user":{"id":7,"name":"ann"},"tags":["x"]}',
      'not json at all',
    ]),
    {
      labels: '{app="meta"}',
      entries: [
        { timestampNs: 1n * S, line: 'GET /a', structuredMetadata: { trace_id: 'abc', app: 'x' } },
        { timestampNs: 2n * S, line: 'GET /b', structuredMetadata: { trace_id: 'def' } },
      ],
    },
  ]);

  it('entries whose parsed labels differ become separate result streams, sorted by labels', async () => {
    expect(await query(source, '{app="api"} | logfmt | level!="debug" | keep level, app')).toEqual([
      '{app="api", level="error"} 2:level=error msg="db down" took=2s status=500',
      '{app="api", level="info"} 3:level=info msg="request" took=40ms status=200, 1:level=info msg="started" took=12ms',
    ]);
  });

  it('filters on durations and numbers and formats the line', async () => {
    expect(
      await query(
        source,
        '{app="api"} |= "level" | logfmt | took > 20ms or status >= 500 | line_format "{{.level}}: {{.msg}}" | drop took, status, msg',
      ),
    ).toEqual([
      '{app="api", env="prod", level="error"} 2:error: db down',
      '{app="api", env="prod", level="info"} 3:info: request',
    ]);
  });

  it('returns __error__ labels on parse failures and filters them with __error__=""', async () => {
    const r = await query(source, '{app="json"} | json');
    expect(r).toHaveLength(2);
    expect(r[0]).toMatch(
      /^\{__error__="JSONParserErr", __error_details__="[^"]+", app="json"\} 2:not json at all$/,
    );
    expect(r[1]).toBe(
      '{app="json", level="warn", user_id="7", user_name="ann"} 1:{"level":"warn","user":{"id":7,"name":"ann"},"tags":["x"]}',
    );
    expect(await query(source, '{app="json"} | json who="user.name" | __error__=""')).toEqual([
      '{app="json", who="ann"} 1:{"level":"warn","user":{"id":7,"name":"ann"},"tags":["x"]}',
    ]);
  });

  it('puts structured metadata in the labels, renaming a clash with a stream label', async () => {
    expect(await query(source, '{app="meta"}')).toEqual([
      '{app="meta", app_extracted="x", trace_id="abc"} 1:GET /a',
      '{app="meta", trace_id="def"} 2:GET /b',
    ]);
    expect(await query(source, '{app="meta"} | trace_id="def"')).toEqual([
      '{app="meta", trace_id="def"} 2:GET /b',
    ]);
  });

  it('counts lines read, lines kept and bytes', async () => {
    const stats = newQueryStats();
    await query(source, '{app="api"} |= "error"', {}, stats);
    expect(stats.querier.store.chunk.decompressedLines).toBe(4);
    expect(stats.querier.store.chunk.postFilterLines).toBe(1);
  });

  it('groups by stream labels and attaches categories when asked', async () => {
    const r = await evaluateLogQuery(
      logExpr('{app="meta"} | regexp "(?P<method>\\\\w+) (?P<path>.*)"'),
      {
        tenant: 't',
        startNs: 0n,
        endNs: 10n * S,
        limit: 10,
        direction: 'forward',
        categorizeLabels: true,
      },
      source,
      newQueryStats(),
    );
    expect(r.streams).toHaveLength(1);
    expect(labelsToString(r.streams[0].labels)).toBe('{app="meta"}');
    expect(r.streams[0].entries[0]).toEqual([
      1n * S,
      'GET /a',
      {
        structuredMetadata: [
          { name: 'app_extracted', value: 'x' },
          { name: 'trace_id', value: 'abc' },
        ],
        parsed: [
          { name: 'method', value: 'GET' },
          { name: 'path', value: '/a' },
        ],
      },
    ]);
  });
});

describe('evaluateLogQuery: every stage on real lines', () => {
  const source = new MemorySource([
    stream('{job="nginx"}', [
      '10.0.0.1 - - [10/Oct/2024:13:55:36 +0000] "GET /index.html HTTP/1.1" 200 512',
      '192.168.7.9 - - [10/Oct/2024:13:55:37 +0000] "POST /login HTTP/1.1" 401 90',
      '\u001b[32m10.0.0.2\u001b[0m - - [10/Oct/2024:13:55:38 +0000] "GET /x HTTP/1.1" 500 1',
    ]),
    stream('{job="packed"}', ['{"_entry":"inner line","pod":"p-1","n":3}', '{"pod":"p-2"}']),
  ]);

  const lines = async (q: string): Promise<string[]> =>
    (await query(source, q, { direction: 'forward' })).flatMap((s) => s.split(' 1:').slice(1));

  it('pattern parser and pattern line filter', async () => {
    expect(
      await query(
        source,
        '{job="nginx"} |> "<_> - - <_> \\"POST <_>" | pattern "<ip> - - <_> \\"<method> <path> <_>\\" <status> <_>"',
      ),
    ).toEqual([
      '{ip="192.168.7.9", job="nginx", method="POST", path="/login", status="401"} 2:192.168.7.9 - - [10/Oct/2024:13:55:37 +0000] "POST /login HTTP/1.1" 401 90',
    ]);
  });

  it('ip() line filters and ip label filters', async () => {
    const r = await query(source, '{job="nginx"} |= ip("10.0.0.0/8")', { direction: 'forward' });
    expect(r[0].split(', ')).toHaveLength(2);
    const l = await query(
      source,
      '{job="nginx"} | regexp "^(?P<addr>\\\\S+)" | addr != ip("10.0.0.0/8") | keep addr',
    );
    expect(l).toEqual([expect.stringMatching(/^\{addr="192\.168\.7\.9"\} 2:/)]);
  });

  it('decolorize removes ANSI escapes before later stages', async () => {
    expect(
      await query(
        source,
        '{job="nginx"} |= "/x" | decolorize | line_format "{{ __line__ | trunc 8 }}"',
      ),
    ).toEqual(['{job="nginx"} 3:10.0.0.2']);
  });

  it('unpack replaces the line with _entry and extracts string fields', async () => {
    expect(await query(source, '{job="packed"} | unpack', { direction: 'forward' })).toEqual([
      '{job="packed", pod="p-1"} 1:inner line',
      '{job="packed"} 2:{"pod":"p-2"}',
    ]);
  });

  it('label_format renames and templates labels', async () => {
    expect(
      await query(
        source,
        '{job="packed"} | json | label_format name=pod, both="{{.name}}/{{.n}}" | keep name, both',
      ),
    ).toEqual([
      '{both="p-1/3", name="p-1"} 1:{"_entry":"inner line","pod":"p-1","n":3}',
      '{both="p-2/", name="p-2"} 2:{"pod":"p-2"}',
    ]);
  });

  it('or-chained and regex line filters', async () => {
    expect(await lines('{job="nginx"} |~ "\\" (4|5)\\\\d\\\\d " != "login"')).toEqual([]);
    const r = await query(source, '{job="nginx"} |= "index" or "login"', { direction: 'forward' });
    expect(r[0]).toMatch(/^\{job="nginx"\} 1:10\.0\.0\.1 .*, 2:192\.168\.7\.9 /);
  });
});
