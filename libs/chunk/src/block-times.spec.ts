import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMPTY_LABELS, labelsFromRecord } from '@logsvc/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BlockSpill } from './block-spill';
import { MemChunk } from './mem-chunk';
import { runTimesOf, type RunSummary } from './run-summary';

/** A run's times as its entries give them and as its meta gives them, side by side. */
function bothWays(r: RunSummary, origin: bigint) {
  const loaded = runTimesOf(r.load());
  const meta = r.times(true);
  return {
    meta: { offsets: [...meta.offsets(origin)], lineOffsets: [...meta.lineOffsets!] },
    loaded: { offsets: [...loaded.offsets(origin)], lineOffsets: [...loaded.lineOffsets!] },
  };
}

function runsOf(c: MemChunk): readonly RunSummary[] {
  return c.iterator(-(1n << 63n), (1n << 63n) - 1n, 'forward').summarize!()!.runs;
}

describe('a cut block counted from its side copy of its times', () => {
  let dir: string | null = null;
  afterEach(() => {
    vi.restoreAllMocks();
    if (dir !== null) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  it('gives the times its entries give, for negative, far apart and extreme timestamps', () => {
    const spans = [
      [-5n, -1n, 0n, 3n],
      // Deltas above 2^32 ns, a span under 2^53.
      [0n, 5n << 33n, 7n << 40n],
      // A span of 2^53 ns or more: its deltas go through BigInt.
      [-(1n << 63n), -5n, 0n, (1n << 63n) - 1n],
    ];
    for (const ts of spans) {
      const sut = new MemChunk({ encoding: 'snappy' });
      for (const t of ts) sut.append(t, Buffer.from(`line at ${t}`), EMPTY_LABELS);
      sut.cutBlock();
      const [run] = runsOf(sut);
      expect(run.entries).toBe(ts.length);
      expect(run.lineBytes).toBe(ts.reduce((n, t) => n + `line at ${t}`.length, 0));
      expect(run.metadataNames).toEqual([]);
      const { meta, loaded } = bothWays(run, ts[1]);
      expect(meta).toEqual(loaded);
    }
  });

  it('names the metadata its entries carry; a chunk read back from its bytes has no side copy', () => {
    const sut = new MemChunk({ encoding: 'snappy', blockSize: 1 << 20 });
    for (let i = 0; i < 50; i++) {
      const sm = i % 7 === 0 ? labelsFromRecord({ trace_id: `t${i}`, pod: 'p' }) : EMPTY_LABELS;
      sut.append(BigInt(i) * 1_000_000_000n, Buffer.from(`msg ${i}`), sm);
    }
    sut.cutBlock();
    const [run] = runsOf(sut);
    expect([...run.metadataNames!].sort()).toEqual(['pod', 'trace_id']);
    // Timestamps a second apart take 8 bytes for the first, 5 for each delta; lengths 1 each.
    expect(sut.blockTimesBytes).toBe(8 + 49 * 5 + 50);
    const restored = MemChunk.restore(sut.encode());
    expect(restored.blockTimesBytes).toBe(0);
    const [old] = runsOf(restored);
    expect(old.lineBytes).toBeUndefined();
    expect(old.metadataNames).toBeUndefined();
    expect(bothWays(old, 0n).meta).toEqual(bothWays(run, 0n).meta);
  });

  it('keeps the side copies in one buffer that grows; snapshots taken before stay intact', () => {
    const sut = new MemChunk({ encoding: 'snappy', blockSize: 1 << 20 });
    const snapshots: { copy: MemChunk; blocks: number }[] = [];
    for (let b = 0; b < 6; b++) {
      for (let i = 0; i < 40; i++) {
        sut.append(BigInt(b * 1000 + i) * 1_000_000n, Buffer.from(`block ${b} line ${i}`), []);
      }
      sut.cutBlock();
      snapshots.push({ copy: MemChunk.fromSnapshot(sut.snapshot()), blocks: sut.blockCount });
    }
    expect(sut.blockTimesHeld).toBeGreaterThan(sut.blockTimesBytes);
    sut.close();
    expect(sut.blockTimesHeld).toBe(sut.blockTimesBytes);
    for (const { copy, blocks } of snapshots) {
      const runs = runsOf(copy);
      expect(runs).toHaveLength(blocks);
      for (const r of runs) {
        expect(r.lineBytes).toBeDefined();
        const { meta, loaded } = bothWays(r, 0n);
        expect(meta).toEqual(loaded);
      }
    }
  });

  it('gives blocks cut after a restore side copies, beside the restored ones without', () => {
    const first = new MemChunk({ encoding: 'snappy', blockSize: 1 << 20 });
    for (let i = 0; i < 30; i++) first.append(BigInt(i) * 1000n, Buffer.from(`old ${i}`), []);
    first.cutBlock();
    const sut = MemChunk.restore(first.encode(), { blockSize: 1 << 20 });
    for (let i = 30; i < 60; i++) {
      const sm = i % 2 === 0 ? labelsFromRecord({ pod: 'p' }) : EMPTY_LABELS;
      sut.append(BigInt(i) * 1000n, Buffer.from(`new ${i}`), sm);
    }
    sut.cutBlock();
    for (const c of [sut, MemChunk.fromSnapshot(sut.snapshot())]) {
      const runs = runsOf(c);
      expect(runs.map((r) => r.metadataNames)).toEqual([undefined, ['pod']]);
      for (const r of runs) {
        const { meta, loaded } = bothWays(r, 0n);
        expect(meta).toEqual(loaded);
      }
    }
  });

  it('reads no spilled bytes, in the chunk or in a snapshot of it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'block-times-'));
    const spill = BlockSpill.open(dir, 4096);
    try {
      const sut = new MemChunk({ encoding: 'snappy', blockSize: 2000, spill });
      for (let i = 0; i < 300; i++) {
        sut.append(BigInt(i) * 10n, Buffer.from(`request ${i} ${'x'.repeat(i % 50)}`), []);
      }
      sut.cutBlock();
      for (let i = 0; i < 2500 && sut.compressing; i++) {
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      expect(sut.compressing).toBe(false);
      expect(spill.bytesWritten).toBe(sut.compressedBytes);
      const copy = MemChunk.fromSnapshot(sut.snapshot());
      const read = vi.spyOn(BlockSpill, 'read');
      const readTransient = vi.spyOn(BlockSpill, 'readTransient');
      for (const c of [sut, copy]) {
        const runs = runsOf(c);
        expect(runs.length).toBeGreaterThan(3);
        for (const r of runs) r.times(true);
      }
      expect(read).not.toHaveBeenCalled();
      expect(readTransient).not.toHaveBeenCalled();
      // Their entries are read from the spill (into the thread's scratch buffer: the snapshot's
      // copy keeps no bytes for one decompression), and agree with the side copies.
      for (const r of runsOf(copy)) {
        const { meta, loaded } = bothWays(r, 0n);
        expect(meta).toEqual(loaded);
      }
      expect(readTransient).toHaveBeenCalled();
      expect(read).not.toHaveBeenCalled();
    } finally {
      spill.close();
    }
  });
});
