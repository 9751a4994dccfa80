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

  it('leaves a head appended out of time order to the block encoding', () => {
    const head = headWith([entries[1], entries[0]]);
    expect(
      encodeHeadRun(head.transientView(), head.uncompressedBytes, head.symbols.encode()),
    ).toBeNull();
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
