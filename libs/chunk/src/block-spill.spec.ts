import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { EMPTY_LABELS, labelsFromRecord } from '@logsvc/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlockSpill } from './block-spill';
import { MemChunk } from './mem-chunk';
import { drain } from './test-helpers';

async function compressed(chunk: MemChunk): Promise<void> {
  for (let i = 0; i < 2500 && chunk.compressing; i++) {
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  expect(chunk.compressing).toBe(false);
}

/** 300 entries, every fifth out of time order, some with metadata: several cut blocks. */
function fill(chunk: MemChunk): void {
  for (let i = 0; i < 300; i++) {
    const ts = i % 5 === 4 ? BigInt(i - 3) * 10n + 1n : BigInt(i) * 10n;
    const sm = i % 3 === 0 ? EMPTY_LABELS : labelsFromRecord({ detected_level: 'warn' });
    chunk.append(ts, Buffer.from(`level=warn msg="request ${i}" ${'y'.repeat(i % 40)}`), sm);
  }
}

describe('MemChunk with a block spill', () => {
  let dir: string;
  let spill: BlockSpill;
  /** The same entries in a chunk whose compressed blocks spill and in one that holds them. */
  async function spilledAndHeld(): Promise<{ spilled: MemChunk; held: MemChunk }> {
    const spilled = new MemChunk({ encoding: 'snappy', blockSize: 1500, targetSize: 0, spill });
    const held = new MemChunk({ encoding: 'snappy', blockSize: 1500, targetSize: 0 });
    fill(spilled);
    fill(held);
    await compressed(spilled);
    await compressed(held);
    return { spilled, held };
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'block-spill-'));
    spill = BlockSpill.open(dir, 4096);
  });
  afterEach(() => {
    spill.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads, encodes, snapshots and checkpoints exactly as a chunk holding its blocks', async () => {
    const { spilled, held } = await spilledAndHeld();
    expect(spilled.blockCount).toBeGreaterThan(5);
    expect(spilled.compressedBytes).toBe(held.compressedBytes);
    expect(spill.bytesWritten).toBe(spilled.compressedBytes);

    const all = (c: MemChunk): unknown => drain(c.iterator(0n, 10_000n, 'backward'));
    expect(all(spilled)).toEqual(all(held));
    const filtered = (c: MemChunk): unknown =>
      drain(c.iterator(0n, 10_000n, 'forward', { lineContains: Buffer.from('request 17') }));
    expect(filtered(spilled)).toEqual(filtered(held));
    expect(spilled.encodeSnapshot().equals(held.encodeSnapshot())).toBe(true);
    const fromSnapshot = MemChunk.fromSnapshot(spilled.snapshot());
    expect(all(fromSnapshot)).toEqual(all(held));
    const split = spilled.split(0n, 10_000n, 'forward');
    expect(split.encodeBlocks?.().equals(held.split(0n, 10_000n, 'forward').encodeBlocks!())).toBe(
      true,
    );

    // An entry equal to one in the block just cut is still refused, and appends go on.
    const last = drain(spilled.iterator(0n, 10_000n, 'forward')).at(-1)!;
    expect(spilled.append(last.ts, Buffer.from(last.line), last.sm)).toBe(
      held.append(last.ts, Buffer.from(last.line), last.sm),
    );
    spilled.append(99_999n, Buffer.from('after'), EMPTY_LABELS);
    held.append(99_999n, Buffer.from('after'), EMPTY_LABELS);
    expect(spilled.encode().equals(held.encode())).toBe(true);
    expect(all(MemChunk.decode(spilled.encode()))).toEqual(all(held));
  });

  // Spilled bytes are read into one reused buffer when they are decompressed into new memory;
  // blocks stored uncompressed are their own bytes, so each must keep a copy of its own.
  it.each(['snappy', 'none'] as const)(
    'keeps every block read intact while later ones are read (%s)',
    async (encoding) => {
      const spilled = new MemChunk({ encoding, blockSize: 1500, targetSize: 0, spill });
      const held = new MemChunk({ encoding, blockSize: 1500, targetSize: 0 });
      fill(spilled);
      fill(held);
      await compressed(spilled);
      expect(spilled.blockCount).toBeGreaterThan(5);
      // Entries every fifth out of order: the cursor holds several blocks open at once.
      const lines = (c: MemChunk): string[] =>
        drain(c.iterator(0n, 10_000n, 'forward')).map((e) => e.line);
      expect(lines(spilled)).toEqual(lines(held));
    },
  );
  it('leaves no file behind: spill files are unlinked once open', async () => {
    const chunk = new MemChunk({ encoding: 'snappy', blockSize: 1500, targetSize: 0, spill });
    fill(chunk);
    await compressed(chunk);
    expect(readdirSync(dir)).toEqual([]);
    expect(drain(chunk.iterator(0n, 10_000n, 'forward'))).toHaveLength(300);
  });

  it('snapshots spilled blocks as where their bytes are, which another thread reads', async () => {
    const { spilled, held } = await spilledAndHeld();
    const snapshot = spilled.snapshot();
    const shared = snapshot.blocks;
    if (shared === null || Buffer.isBuffer(shared)) throw new Error('expected shared blocks');
    // Nothing is read back on the snapshot side: the blocks go as file places, kept valid by
    // the retained blocks.
    expect(shared.data.every((d) => d.length === 0)).toBe(true);
    expect(shared.spilled.every((s) => s !== null)).toBe(true);
    expect(snapshot.retain).toHaveLength(spilled.blockCount);
    const all = (c: MemChunk): unknown => drain(c.iterator(0n, 10_000n, 'backward'));
    const copy = MemChunk.fromSnapshot(snapshot);
    expect(all(copy)).toEqual(all(held));
    expect(copy.compressedBytes).toBe(held.compressedBytes);

    // A worker thread reads the same bytes through the descriptor.
    const place = shared.spilled[0]!;
    const worker = new Worker(
      `const { readSync } = require('node:fs');
       const { parentPort, workerData: p } = require('node:worker_threads');
       const out = Buffer.alloc(p.length);
       readSync(p.fd, out, 0, p.length, p.offset);
       parentPort.postMessage(out.toString('base64'));`,
      { eval: true, workerData: place },
    );
    const read = await new Promise<string>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    const heldShared = held.snapshot().blocks;
    if (heldShared === null || Buffer.isBuffer(heldShared))
      throw new Error('expected shared blocks');
    expect(Buffer.from(read, 'base64').equals(Buffer.from(heldShared.data[0]!))).toBe(true);
  });

  it('keeps blocks in memory once closed', async () => {
    spill.close();
    const chunk = new MemChunk({ encoding: 'snappy', blockSize: 1500, targetSize: 0, spill });
    fill(chunk);
    await compressed(chunk);
    expect(spill.bytesWritten).toBe(0);
    expect(drain(chunk.iterator(0n, 10_000n, 'forward'))).toHaveLength(300);
  });
});
