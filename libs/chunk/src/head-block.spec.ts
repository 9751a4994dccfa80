import { EMPTY_LABELS } from '@logsvc/api';
import { describe, expect, it } from 'vitest';
import { HeadBlock } from './head-block';

const BASE = 1_700_000_000_000_000_000n;

function line(i: number): Buffer {
  return Buffer.from(`level=info msg="request ${i}" status=200`);
}

/** The order four clients sharing a stream deliver it in: batches of 20, stride 4. */
function interleaved(n: number): number[] {
  const order: number[] = [];
  for (let round = 0; round * 80 < n; round++)
    for (let client = 0; client < 4; client++)
      for (let j = 0; j < 20; j++) {
        const g = round * 80 + j * 4 + client;
        if (g < n) order.push(g);
      }
  return order;
}

describe('HeadBlock duplicates out of order', () => {
  it('rejects every re-sent entry of a block filled out of order, past several growths', () => {
    const sut = new HeadBlock();
    const order = interleaved(3000);
    for (const g of order)
      expect(sut.append(BASE + BigInt(g) * 1_000_003n, line(g), EMPTY_LABELS)).toBe(true);
    for (const g of order.slice().reverse()) {
      expect(sut.append(BASE + BigInt(g) * 1_000_003n, line(g), EMPTY_LABELS)).toBe(false);
    }
    expect(sut.entryCount).toBe(3000);
  });

  it('keeps entries that share a timestamp or a line but not both', () => {
    const sut = new HeadBlock();
    const ts = (i: number) => BASE + BigInt(i);
    expect(sut.append(ts(10), line(1), EMPTY_LABELS)).toBe(true);
    expect(sut.append(ts(5), line(1), EMPTY_LABELS)).toBe(true); // out of order: indexed
    expect(sut.append(ts(10), line(2), EMPTY_LABELS)).toBe(true);
    expect(sut.append(ts(5), line(2), EMPTY_LABELS)).toBe(true);
    // Same low 32 bits, another high word: a different timestamp.
    expect(sut.append(ts(5) + (1n << 32n), line(1), EMPTY_LABELS)).toBe(true);
    expect(sut.append(ts(5), line(1), EMPTY_LABELS)).toBe(false);
    expect(sut.append(ts(10), line(2), EMPTY_LABELS)).toBe(false);
    expect(sut.append(ts(5) + (1n << 32n), line(1), EMPTY_LABELS)).toBe(false);
    expect(sut.entryCount).toBe(5);
  });

  it('finds duplicates of negative timestamps and the range ends', () => {
    const sut = new HeadBlock();
    const values = [-5n, 7n, -(1n << 62n), 1n << 62n, 0n, -1n];
    for (const v of values) expect(sut.append(v, line(0), EMPTY_LABELS)).toBe(true);
    for (const v of values) expect(sut.append(v, line(0), EMPTY_LABELS)).toBe(false);
    expect(sut.entryCount).toBe(values.length);
  });

  it('tells new entries from the few copies among them while most arrive out of order', () => {
    const sut = new HeadBlock();
    const order = interleaved(2000);
    const ts = (g: number) => BASE + BigInt(g) * 999_983n;
    let copies = 0;
    order.forEach((g, i) => {
      expect(sut.append(ts(g), line(g), EMPTY_LABELS)).toBe(true);
      // Now and then an entry stored earlier comes again, as a retried push would send it,
      // and a new line at an old entry's timestamp, which is no copy.
      if (i % 97 === 96) {
        const earlier = order[i - 50];
        expect(sut.append(ts(earlier), line(earlier), EMPTY_LABELS)).toBe(false);
        expect(sut.append(ts(earlier), line(earlier + 1_000_000), EMPTY_LABELS)).toBe(true);
        copies++;
      }
    });
    expect(copies).toBeGreaterThan(15);
    expect(sut.entryCount).toBe(2000 + copies);
  });

  it('reads back in timestamp order, equal timestamps in arrival order, whatever the span', () => {
    // Packed offsets sorted natively; spans too wide to pack (2^37 and 2^50 ns steps).
    for (const step of [1_000_003n, 1n << 37n, 1n << 50n]) {
      const sut = new HeadBlock();
      const order = interleaved(500);
      // Every fifth timestamp is shared by two lines, the second sent one round later.
      const ts = (g: number) => BASE + BigInt(g - (g % 5 === 1 ? 1 : 0)) * step;
      for (const g of order) expect(sut.append(ts(g), line(g), EMPTY_LABELS)).toBe(true);
      const cursor = sut.iterator(-(1n << 63n), (1n << 63n) - 1n, 'forward');
      const got: string[] = [];
      while (cursor.next()) got.push(`${cursor.timestampNs}:${cursor.line.toString()}`);
      const arrival = new Map(order.map((g, i) => [g, i]));
      const want = [...order]
        .sort((a, b) =>
          ts(a) < ts(b) ? -1 : ts(a) > ts(b) ? 1 : arrival.get(a)! - arrival.get(b)!,
        )
        .map((g) => `${ts(g)}:${line(g).toString()}`);
      expect(got).toEqual(want);
    }
  });
});
