import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMPTY_LABELS, parseLabels } from '@logsvc/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckpointAbandonedError, checkpointWatch } from './checkpoint-budget';
import { DEFAULT_INGESTER_CONFIG } from './config';
import { Ingester } from './ingester';
import type { IngesterLogger } from './logger';

const STREAMS = 4_000;
const BASE_NS = 1_704_067_200_000_000_000n;

describe('checkpointWatch', () => {
  it('gives up once the pace since its set-up cannot finish before the deadline', () => {
    let now = 0;
    const sut = checkpointWatch(10_000, () => now);
    now = 500; // the set-up (a new segment, the temp file) is not the pace
    sut(64, 10_000);
    now = 600;
    expect(() => sut(128, 10_000)).not.toThrow(); // 64 streams, 100 ms: too early to judge
    now = 1_500;
    expect(() => sut(1_064, 10_000)).not.toThrow(); // 1 ms a stream: 10.5 s, within the margin
    now = 2_500;
    expect(() => sut(1_064, 10_000)).toThrow(CheckpointAbandonedError); // 2 ms a stream: 20.4 s
    expect(() => sut(1_064, 10_000)).toThrow(
      /final WAL checkpoint of 10000 streams given up: at its pace it needs about 20\.4 s, more than the 10\.0 s left of server\.graceful_shutdown_timeout/,
    );
  });
});

describe('the final checkpoint within the graceful shutdown period', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ckpt-budget-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const errors: string[] = [];
  const logger: IngesterLogger = {
    info: () => {},
    warn: () => {},
    error: (fields, message) =>
      errors.push(`${message}: ${((fields as { err?: Error }).err ?? {}).message}`),
  };
  const ingester = (): Ingester =>
    new Ingester({
      config: {
        ...DEFAULT_INGESTER_CONFIG,
        wal: { ...DEFAULT_INGESTER_CONFIG.wal, enabled: true, dir, checkpoint_duration: 0 },
      },
      sink: { putChunks: async () => {} },
      backgroundLoops: false,
      logger,
    });

  async function pushStreams(sut: Ingester): Promise<void> {
    const streams = Array.from({ length: STREAMS }, (_, i) => ({
      labels: parseLabels(`{app="many", id="${i}"}`),
      entries: [
        {
          timestampNs: BASE_NS + BigInt(i),
          line: Buffer.from(`stream ${i}`),
          structuredMetadata: EMPTY_LABELS,
        },
      ],
    }));
    const outcome = await sut.push('t', { streams });
    expect(outcome.appended).toBe(STREAMS);
  }

  it('gives a checkpoint that cannot finish up at once, says why, and loses nothing', async () => {
    errors.length = 0;
    const sut = ingester();
    await sut.start();
    await pushStreams(sut);
    const startedAt = Date.now();
    await sut.shutdown({ flush: false, budgetMs: 1 });
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    expect(errors).toEqual([
      expect.stringMatching(
        /^final WAL checkpoint failed: final WAL checkpoint of 4000 streams given up: .* server\.graceful_shutdown_timeout .* the next start replays the WAL segments instead$/,
      ),
    ]);
    // No checkpoint (nor a temp file of one): the segments are replayed on the next start.
    expect((await readdir(dir)).filter((f) => f.startsWith('checkpoint'))).toEqual([]);
    const next = ingester();
    await next.start();
    expect(next.streamCount).toBe(STREAMS);
    await next.shutdown({ flush: false });
  });

  it('writes the final checkpoint when the period leaves time for it', async () => {
    errors.length = 0;
    const sut = ingester();
    await sut.start();
    await pushStreams(sut);
    await sut.shutdown({ flush: false, budgetMs: 120_000 });
    expect(errors).toEqual([]);
    expect((await readdir(dir)).filter((f) => /^checkpoint\.\d+$/.test(f))).toHaveLength(1);
  });
});
