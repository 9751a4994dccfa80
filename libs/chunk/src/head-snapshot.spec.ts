import { describe, expect, it } from 'vitest';
import { HeadBlock } from './head-block';
import { decodeHeadRun, encodeHeadRun } from './head-snapshot';
import { SymbolTable } from './symbols';

function headWith(lines: readonly [bigint, string, Record<string, string>][]): HeadBlock {
  const head = new HeadBlock(new SymbolTable());
  for (const [ts, line, sm] of lines) {
    head.append(
      ts,
      Buffer.from(line),
      Object.entries(sm).map(([name, value]) => ({ name, value })),
    );
  }
  return head;
}

function rows(run: ReturnType<typeof decodeHeadRun>['run']) {
  const out: [bigint, string, string[]][] = [];
  for (let r = 0; r < run.count; r++) {
    const ids = [...run.smIds.subarray(run.smOffsets[r], run.smOffsets[r + 1])];
    out.push([
      run.ts[r],
      run.lines.toString('utf8', run.lineOffsets[r], run.lineOffsets[r + 1]),
      ids.map((id) => run.symbols[id]),
    ]);
  }
  return out;
}

describe('head runs (a head block for a query worker)', () => {
  const entries: [bigint, string, Record<string, string>][] = [
    [1n, 'first', {}],
    [2n, 'second', { trace_id: 'abc', level: 'info' }],
    [2n, 'third, same time', { trace_id: 'def' }],
  ];

  it('reads back the entries, their metadata and the raw byte count, at any buffer offset', () => {
    const head = headWith(entries);
    const bytes = encodeHeadRun(
      head.transientView(),
      head.uncompressedBytes,
      head.symbols.encode(),
    )!;
    for (const shift of [0, 1, 3, 4]) {
      const placed = Buffer.alloc(bytes.length + shift);
      bytes.copy(placed, shift);
      const { run, rawBytes } = decodeHeadRun(placed.subarray(shift));
      expect(rawBytes).toBe(head.uncompressedBytes);
      expect(rows(run)).toEqual([
        [1n, 'first', []],
        [2n, 'second', ['trace_id', 'abc', 'level', 'info']],
        [2n, 'third, same time', ['trace_id', 'def']],
      ]);
    }
  });

  it('carries a head appended out of time order with its order, for queries only', () => {
    const head = headWith([entries[1], entries[0], entries[2]]);
    const view = head.transientView();
    // The WAL checkpoint keeps such a head as a block: no run without the order.
    expect(encodeHeadRun(view, head.uncompressedBytes, head.symbols.encode())).toBeNull();
    const bytes = encodeHeadRun(view, head.uncompressedBytes, head.symbols.encode(), true)!;
    const { run } = decodeHeadRun(bytes);
    // Rows as they arrived; the order reads them by time, ties in arrival order.
    expect(rows(run).map((r) => r[1])).toEqual(['second', 'first', 'third, same time']);
    expect([...run.order!]).toEqual([1, 0, 2]);
    // An order that repeats a row, or does not sort the timestamps, is refused.
    const orderAt = bytes.length - head.symbols.encode().length - view.lineOffsets[3] - 12;
    const spoiled = Buffer.from(bytes);
    spoiled.writeUInt32LE(1, orderAt + 4);
    expect(() => decodeHeadRun(spoiled)).toThrow(/order/);
    const unsorted = Buffer.from(bytes);
    unsorted.writeUInt32LE(0, orderAt);
    unsorted.writeUInt32LE(1, orderAt + 4);
    expect(() => decodeHeadRun(unsorted)).toThrow(/order/);
  });

  it('refuses bytes whose length does not match their header', () => {
    const head = headWith(entries);
    const bytes = encodeHeadRun(
      head.transientView(),
      head.uncompressedBytes,
      head.symbols.encode(),
    )!;
    expect(() => decodeHeadRun(bytes.subarray(0, bytes.length - 1))).toThrow(/length/);
  });
});
