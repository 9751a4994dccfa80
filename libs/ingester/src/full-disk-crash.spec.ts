import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { LIBS, replayedIds, runUntilKilled } from './testing/crash-run';

const RUNS = 3;

/**
 * A process whose disk fills up and frees again at random, with clients that retry every push
 * until it succeeds (and, every other batch, send a second copy at once, as an agent does after
 * a timeout). Prints `ack <ids>` once a push of those ids succeeded, `fail` per failed attempt.
 * The WAL writes through FaultyWalFs: writes fail with ENOSPC while `full` is set.
 */
const CHILD = `
import { parseLabels, EMPTY_LABELS } from '@logsvc/api';
import { DEFAULT_INGESTER_CONFIG, Ingester } from '@logsvc/ingester';
import { FaultyWalFs } from '${LIBS}/ingester/src/wal/faulty-fs';

const dir = process.argv[2];
let state = Number(process.argv[3]) >>> 0;
const random = (): number => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const fs = new FaultyWalFs();
const ingester = new Ingester({
  config: {
    ...DEFAULT_INGESTER_CONFIG,
    chunk_target_size: 4096,
    flush_check_period: 3_600_000,
    wal: { enabled: true, dir, checkpoint_duration: 40 },
  },
  sink: { putChunks: async () => {} },
  walSegmentSize: 32 * 1024,
  walLock: { heartbeatMs: 50 },
  walFs: fs,
});

// Full for 5-40 ms, then free for 5-60 ms, over and over (checkpoints fail while full, too).
function toggleDisk(): void {
  fs.full = !fs.full;
  setTimeout(toggleDisk, fs.full ? 5 + random() * 35 : 5 + random() * 55);
}

async function client(c: number): Promise<void> {
  const labels = parseLabels('{client="' + c + '"}');
  for (let n = 0; ; n++) {
    const ids: number[] = [];
    for (let k = 0; k < 8; k++) ids.push(c * 10_000_000 + n * 8 + k);
    const request = {
      streams: [
        {
          labels,
          entries: ids.map((id) => ({
            timestampNs: 1_704_067_200_000_000_000n + BigInt(id % 10_000_000),
            line: Buffer.from('entry ' + id),
            structuredMetadata: EMPTY_LABELS,
          })),
        },
      ],
    };
    const copies = n % 2 === 0 ? 1 : 2;
    for (;;) {
      const tries = Array.from({ length: copies }, () => ingester.push('tenant', request));
      const results = await Promise.allSettled(tries);
      if (results.some((r) => r.status === 'fulfilled')) break;
      process.stdout.write('fail\\n');
      await new Promise((r) => setTimeout(r, 1 + random() * 4));
    }
    process.stdout.write('ack ' + ids.join(',') + '\\n');
  }
}

ingester.start().then(() => {
  toggleDisk();
  for (let c = 0; c < 4; c++) void client(c);
});
`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ingester-full-disk-crash-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('loses no acknowledged entry when a retrying client meets a full disk and the process dies', async () => {
  const seed = Date.now() % 1_000_000;
  for (let run = 0; run < RUNS; run++) {
    const walDir = join(dir, `wal-${run}`);
    // The kill comes after a number of acknowledged entries that differs per run.
    const minAcked = 1500 + ((seed * (run + 7)) % 2500);
    const { acked, said } = await runUntilKilled({
      workDir: dir,
      source: CHILD,
      args: [walDir, String(seed + run)],
      minAcked,
    });
    // Only loss is checked: a copy that arrives while its stream cuts a chunk in the middle of
    // the batch is stored again in the new chunk (as in Loki; queries merge such copies).
    const seen = await replayedIds(walDir, (line) => Number(line.split(' ')[1]));
    const missing = [...acked].filter((id) => !seen.has(id)).length;
    expect({
      seed,
      run,
      acked: acked.size >= minAcked,
      diskWasFull: (said.get('fail') ?? 0) > 0,
      missing,
    }).toEqual({ seed, run, acked: true, diskWasFull: true, missing: 0 });
  }
});
