import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMPTY_LABELS, parseLabels } from '@logsvc/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ASSUMED_CHECKPOINT_MS_PER_STREAM,
  CheckpointAbandonedError,
  CheckpointPace,
  checkpointWatch,
} from './checkpoint-budget';
import { DEFAULT_INGESTER_CONFIG } from './config';
import { Ingester } from './ingester';
import type { IngesterLogger } from './logger';

const STREAMS = 4_000;
const BASE_NS = 1_704_067_200_000_000_000n;

describe('checkpointWatch', () => {
  it('warns once the pace since its set-up cannot finish in time, and gives up at the deadline', () => {
    let now = 0;
    const warned: string[] = [];
    const sut = checkpointWatch(
      10_000,
      (p, b) => warned.push(`${p} of ${b}`),
      () => now,
    );
    now = 500; // the set-up (a new segment, the temp file) is not the pace
    sut(64, 10_000);
    now = 600;
    sut(128, 10_000); // 100 ms: too early to judge (2.5 s)
    now = 3_000;
    sut(2_564, 10_000); // 1 ms a stream: 10.4 s, more than the 10 s
    now = 4_000;
    sut(3_000, 10_000); // judged once only
    expect(warned).toEqual(['10436 of 10000']);
    now = 8_999;
    expect(() => sut(9_000, 10_000)).not.toThrow();
    now = 9_000; // the deadline less its reserve (10 %)
    expect(() => sut(9_064, 10_000)).toThrow(CheckpointAbandonedError);
    expect(() => sut(9_064, 10_000)).toThrow(
      'final WAL checkpoint given up at the end of server.graceful_shutdown_timeout (10.0 s left for it): 9064 of 10000 streams written; raise it for this many streams; the next start replays the WAL segments instead',
    );
  });

  it('stays silent when the pace finishes in time', () => {
    let now = 0;
    const warned: number[] = [];
    const sut = checkpointWatch(
      10_000,
      (p) => warned.push(p),
      () => now,
    );
    sut(64, 10_000);
    now = 3_000;
    sut(5_064, 10_000); // 0.6 ms a stream: 6 s
    expect(warned).toEqual([]);
  });
});

describe('CheckpointPace', () => {
  it('estimates the final checkpoint at the assumed pace, then at the last measured one', () => {
    const sut = new CheckpointPace();
    const assumedMs = 200_000 * ASSUMED_CHECKPOINT_MS_PER_STREAM;
    expect(sut.tooLong(200_000, assumedMs)).toBeNull();
    expect(sut.tooLong(200_000, assumedMs - 1)?.message).toBe(
      'the final WAL checkpoint of 200000 streams is estimated at 10.0 s (50.0 µs a stream, ' +
        'assumed: no checkpoint has run yet), more than the 10.0 s of ' +
        'server.graceful_shutdown_timeout: it may be given up at the deadline and the next ' +
        'start replay the WAL segments instead; raise server.graceful_shutdown_timeout (and ' +
        'the pod termination grace period) for this many streams',
    );
    sut.record(500, 5_000); // too few streams to tell a pace
    expect(sut.tooLong(200_000, 30_000)).toBeNull();
    sut.record(100_000, 20_000); // 0.2 ms a stream
    expect(sut.tooLong(200_000, 30_000)).toMatchObject({
      fields: { streams: 200_000, estimated_ms: 40_000, budget_ms: 30_000, pace: 'measured' },
      message: expect.stringContaining(
        "estimated at 40.0 s (200.0 µs a stream, this process's last checkpoint's pace)",
      ),
    });
    expect(sut.tooLong(100_000, 30_000)).toBeNull();
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
  const warnings: string[] = [];
  const logger: IngesterLogger = {
    info: () => {},
    warn: (_fields, message) => warnings.push(message),
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

  it('gives a checkpoint still running at the deadline up, says why, and loses nothing', async () => {
    errors.length = 0;
    warnings.length = 0;
    const sut = ingester();
    await sut.start();
    await pushStreams(sut);
    const startedAt = Date.now();
    await sut.shutdown({ flush: false, budgetMs: 1 });
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    // Said at the start, before the checkpoint's pace could tell.
    expect(warnings[0]).toMatch(
      /^the final WAL checkpoint of 4000 streams is estimated at 0\.2 s \(50\.0 µs a stream, assumed: no checkpoint has run yet\), more than the 0\.0 s of server\.graceful_shutdown_timeout/,
    );
    expect(errors).toEqual([
      expect.stringMatching(
        /^final WAL checkpoint failed: final WAL checkpoint given up at the end of server\.graceful_shutdown_timeout \(0\.0 s left for it\): \d+ of 4000 streams written; .* the next start replays the WAL segments instead$/,
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
    warnings.length = 0;
    const sut = ingester();
    await sut.start();
    await pushStreams(sut);
    await sut.shutdown({ flush: false, budgetMs: 120_000 });
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
    expect((await readdir(dir)).filter((f) => /^checkpoint\.\d+$/.test(f))).toHaveLength(1);
  });
});
