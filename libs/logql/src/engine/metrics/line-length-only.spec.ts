import { EMPTY_LABELS, parseLabels } from '@logsvc/api';
import { describe, expect, it } from 'vitest';
import { runQuery } from '../query';
import type { EntryCursor, LogSource } from '../source';

const S = 1_000_000_000n;
const T0 = 1_700_000_000n * S;

/** A stream's entries whose lines cannot be read: only their offsets (a columnar block's). */
class LengthOnlyCursor implements EntryCursor {
  private i = -1;
  constructor(private readonly entries: readonly [bigint, number][]) {}
  next(): boolean {
    return ++this.i < this.entries.length;
  }
  get timestampNs(): bigint {
    return this.entries[this.i][0];
  }
  get line(): Buffer {
    throw new Error('the line was read');
  }
  get lineSource(): Buffer {
    throw new Error('the line was read');
  }
  get lineStart(): number {
    return 0;
  }
  get lineEnd(): number {
    return this.entries[this.i][1];
  }
  get structuredMetadata() {
    return EMPTY_LABELS;
  }
}

const source = (entries: readonly [bigint, number][]): LogSource => ({
  select: async () => [
    { labels: parseLabels('{app="a"}'), entries: new LengthOnlyCursor(entries) },
  ],
});

describe('bytes_over_time without a pipeline', () => {
  it('counts line bytes from the lines’ lengths alone, lines over 64 KiB too', async () => {
    const entries: [bigint, number][] = [
      [T0 + 1n * S, 10],
      [T0 + 2n * S, 70_000],
      [T0 + 3n * S, 0],
    ];
    // A line over 64 KiB is read as it is: this cursor refuses, so that query fails.
    const withLong = source(entries);
    const short = source(entries.filter(([, n]) => n < 65_536));
    const answer = await runQuery({
      query: 'sum(bytes_over_time({app="a"}[1m]))',
      kind: 'instant',
      startNs: T0 + 10n * S,
      endNs: T0 + 10n * S,
      limit: 100,
      direction: 'forward',
      tenants: 't',
      source: short,
    });
    expect(answer.result).toMatchObject({ type: 'vector', samples: [{ value: 10 }] });
    await expect(
      runQuery({
        query: 'sum(bytes_over_time({app="a"}[1m]))',
        kind: 'instant',
        startNs: T0 + 10n * S,
        endNs: T0 + 10n * S,
        limit: 100,
        direction: 'forward',
        tenants: 't',
        source: withLong,
      }),
    ).rejects.toThrow('the line was read');
  });
});
