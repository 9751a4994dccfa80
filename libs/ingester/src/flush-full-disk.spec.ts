import { EMPTY_LABELS, parseLabels } from '@logsvc/api';
import { describe, expect, it } from 'vitest';
import { DEFAULT_INGESTER_CONFIG } from './config';
import { FlushError } from './errors';
import { Ingester } from './ingester';

/** Well inside one retry of Loki's flush_op_backoff (10 s, then 20 s, 40 s, ... 10 retries). */
const ANSWER_WITHIN_MS = 5_000;

/** A store on a disk with no space left: every put fails as a filesystem write does. */
function fullDisk() {
  const state = { puts: 0 };
  const sink = {
    putChunks: async () => {
      state.puts++;
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
        code: 'ENOSPC',
      });
    },
  };
  return { sink, state };
}

async function withStreams(sink: ReturnType<typeof fullDisk>['sink'], now: () => number) {
  const sut = new Ingester({
    config: {
      ...DEFAULT_INGESTER_CONFIG,
      chunk_idle_period: 1_000,
      wal: { ...DEFAULT_INGESTER_CONFIG.wal, enabled: false },
    },
    sink,
    backgroundLoops: false,
    now,
  });
  await sut.start();
  for (let i = 0; i < 20; i++) {
    await sut.push('t', {
      streams: [
        {
          labels: parseLabels(`{s="${i}"}`),
          entries: [
            { timestampNs: 1n, line: Buffer.from(`e${i}`), structuredMetadata: EMPTY_LABELS },
          ],
        },
      ],
    });
  }
  return sut;
}

/** Settles with the flush's outcome, or 'no answer' when it takes longer than the bound. */
function within(flush: Promise<void>): Promise<unknown> {
  return Promise.race([
    flush.then(
      () => 'flushed',
      (err: unknown) => err,
    ),
    new Promise((done) => setTimeout(() => done('no answer'), ANSWER_WITHIN_MS).unref()),
  ]);
}

describe('a forced flush on a full disk', () => {
  it('fails within one attempt per stream, naming the reason', async () => {
    const { sink, state } = fullDisk();
    const sut = await withStreams(sink, Date.now);
    const outcome = await within(sut.flushAll());
    expect(outcome).toBeInstanceOf(FlushError);
    expect((outcome as Error).message).toBe(
      '20 streams failed to flush: ENOSPC: no space left on device, write',
    );
    expect(state.puts).toBe(20);
  });

  it('does not wait for a background flush that sleeps between its retries', async () => {
    const { sink, state } = fullDisk();
    let clock = Date.now();
    const sut = await withStreams(sink, () => clock);
    clock += 60_000; // every head is idle: the flush check cuts and flushes them
    const check = sut.flushCheck();
    while (state.puts === 0) await new Promise((r) => setTimeout(r, 5));
    // The check's first operation failed and waits 10 s before its next try.
    const outcome = await within(sut.flushAll());
    expect(outcome).toBeInstanceOf(FlushError);
    expect((outcome as Error).message).toMatch(/^20 streams failed to flush: ENOSPC/);
    await check;
  });
});
