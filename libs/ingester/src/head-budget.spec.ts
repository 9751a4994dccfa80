import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMPTY_LABELS, labelsToString, parseLabels, type PushRequest } from '@logsvc/api';
import { DEFAULT_INGESTER_CONFIG, type IngesterConfig } from './config';
import { Ingester } from './ingester';
import type { ChunkSink } from './sink';

const SECOND = 1_000_000_000n;
const T0 = 1_704_067_200n * SECOND;
const STREAMS = 50;
const LINE = 'level=info msg="request handled" path=/api/v1/items status=200 latency_ms=12';

const NO_SINK: ChunkSink = { putChunks: async () => {} };

/** One push of `perStream` lines to each of the streams, round `round` of them. */
function push(round: number, perStream: number): PushRequest {
  const streams = [];
  for (let s = 0; s < STREAMS; s++) {
    const entries = [];
    for (let k = 0; k < perStream; k++) {
      const i = round * perStream + k;
      // Two clients' worth of order: odd rounds a little older than the even one before.
      const ts = T0 + BigInt(2 * i + (round % 2 === 0 ? 1 : 0)) * SECOND;
      entries.push({
        timestampNs: ts,
        line: Buffer.from(`${LINE} n=${i}`),
        structuredMetadata: EMPTY_LABELS,
      });
    }
    streams.push({ labels: parseLabels(`{app="a", pod="p${s}"}`), entries });
  }
  return { streams };
}

describe('max_head_block_bytes', () => {
  let dir: string;
  const open: Ingester[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'head-budget-spec-'));
  });
  afterEach(async () => {
    for (const i of open.splice(0)) await i.shutdown({ flush: false }).catch(() => {});
    await rm(dir, { recursive: true, force: true });
  });

  async function start(config: Partial<IngesterConfig>): Promise<Ingester> {
    const sut = new Ingester({
      config: {
        ...DEFAULT_INGESTER_CONFIG,
        wal: { enabled: true, dir, checkpoint_duration: 60_000 },
        ...config,
      },
      sink: NO_SINK,
      backgroundLoops: false,
      walLock: { heartbeatMs: 10, staleMs: 50 },
    });
    open.push(sut);
    await sut.start();
    return sut;
  }

  function memory(sut: Ingester): string[] {
    const out: string[] = [];
    for (const s of sut.query('t', [], 0n, 2n ** 62n, 'forward')) {
      while (s.entries.next()) {
        out.push(`${labelsToString(s.labels)} ${s.entries.timestampNs - T0} ${s.entries.line}`);
      }
    }
    return out;
  }

  /** Sum of the uncompressed head-block bytes of every stream in memory. */
  function headBytes(sut: Ingester): number {
    const inner = sut as unknown as {
      instances: Map<string, { streams: Map<string, { head: { headBytes: number } | null }> }>;
    };
    let total = 0;
    for (const inst of inner.instances.values())
      for (const s of inst.streams.values()) total += s.head?.headBytes ?? 0;
    return total;
  }

  it('cuts the largest heads into blocks early once all heads pass the budget; answers and replay unchanged', async () => {
    // 50 streams × ~1.7 KB per push: none reaches the 64 KiB block size in 30 pushes.
    const budget = 512 * 1024;
    const limited = await start({ max_head_block_bytes: budget });
    for (let round = 0; round < 30; round++) await limited.push('t', push(round, 20));
    expect(limited.metrics().head_blocks_cut_early_total).toBeGreaterThan(0);
    // Never more than the budget plus what one push adds before the next check.
    expect(headBytes(limited)).toBeLessThanOrEqual(budget + STREAMS * 20 * 100);
    const seen = memory(limited);
    expect(seen).toHaveLength(STREAMS * 20 * 30);

    const unlimited = await start({
      max_head_block_bytes: 0,
      wal: { enabled: false, dir: '', checkpoint_duration: 60_000 },
    });
    for (let round = 0; round < 30; round++) await unlimited.push('t', push(round, 20));
    expect(unlimited.metrics().head_blocks_cut_early_total).toBe(0);
    expect(headBytes(unlimited)).toBeGreaterThan(4 * budget);
    expect(memory(unlimited)).toEqual(seen);

    // A restart replays the WAL into the same entries.
    await limited.shutdown({ flush: false });
    open.splice(open.indexOf(limited), 1);
    const replayed = await start({ max_head_block_bytes: budget });
    expect(memory(replayed)).toEqual(seen);
  }, 60_000);
});
