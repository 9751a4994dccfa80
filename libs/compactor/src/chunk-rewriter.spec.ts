import { isColumnarChunk, MemChunk, recodeChunk } from '@logsvc/chunk';
import { describe, expect, it } from 'vitest';
import { rewriteChunk } from './chunk-rewriter';

function rows(): Buffer {
  const c = new MemChunk({ blockSize: 64, targetSize: 0 });
  for (let i = 0; i < 30; i++)
    c.append(BigInt(i), Buffer.from(`line ${i} ${i % 3 === 0 ? 'secret' : 'ok'}`), []);
  return c.encode();
}

const lines = (data: Buffer) => {
  const it = MemChunk.decode(data).iterator(0n, 100n, 'forward');
  const out: string[] = [];
  while (it.next()) out.push(it.line.toString());
  return out;
};

describe('rewriteChunk', () => {
  it('keeps the chunk format: a columnar chunk is rewritten columnar, a row chunk in rows', () => {
    const deleted = (_ts: bigint, line: Buffer) => line.includes('secret');
    for (const data of [rows(), recodeChunk(rows(), 'columnar')]) {
      const r = rewriteChunk(data, [], deleted);
      if (r.kind !== 'rewritten') throw new Error(`not rewritten: ${r.kind}`);
      expect(r.linesDeleted).toBe(10);
      expect(isColumnarChunk(r.chunk.data)).toBe(isColumnarChunk(data));
      expect(lines(r.chunk.data)).toEqual(lines(data).filter((l) => !l.includes('secret')));
      // Deterministic: the same rewrite gives the same bytes (and chunk key).
      expect(rewriteChunk(data, [], deleted)).toEqual(r);
    }
  });
});
