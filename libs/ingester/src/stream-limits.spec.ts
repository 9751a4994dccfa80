import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMPTY_LABELS, parseLabels, type PushRequest } from '@logsvc/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_INGESTER_CONFIG,
  DEFAULT_TENANT_LIMITS,
  type IngesterConfig,
  type IngesterTenantLimits,
} from './config';
import { Ingester } from './ingester';
import type { ChunkSink } from './sink';

const T0 = 1_704_067_200_000_000_000n;
const entry = (line: string) => ({
  timestampNs: T0,
  line: Buffer.from(line),
  structuredMetadata: EMPTY_LABELS,
});

/** One entry in each of the streams `{s="<name>"}`. */
function streams(...names: string[]): PushRequest {
  return {
    streams: names.map((n) => ({ labels: parseLabels(`{s="${n}"}`), entries: [entry(n)] })),
  };
}

const NO_SINK: ChunkSink = { putChunks: async () => {} };
const GLOBAL_TEXT = (tenant: string, labels: string) =>
  `Maximum active stream limit of this ingester (all tenants) exceeded when trying to create stream ${labels}, user: '${tenant}'; the limit is set by -ingester.max-global-streams`;
const TENANT_TEXT = (tenant: string, labels: string) =>
  `Maximum active stream limit exceeded when trying to create stream ${labels}, reduce the number of active streams (reduce labels or reduce label values), or contact your Loki administrator to see if the limit can be increased, user: '${tenant}'`;

describe('Ingester stream limits', () => {
  let dir: string;
  let clock: number;
  const open: Ingester[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stream-limits-spec-'));
    clock = 1_700_000_000_000;
  });
  afterEach(async () => {
    for (const i of open.splice(0)) await i.shutdown({ flush: false });
    await rm(dir, { recursive: true, force: true });
  });

  async function start(config: Partial<IngesterConfig>, tenantStreams = 0): Promise<Ingester> {
    const limits = (): IngesterTenantLimits => ({
      ...DEFAULT_TENANT_LIMITS,
      max_streams_per_user: 0,
      max_global_streams_per_user: tenantStreams,
    });
    const sut = new Ingester({
      config: {
        ...DEFAULT_INGESTER_CONFIG,
        wal: { enabled: true, dir, checkpoint_duration: 60_000 },
        ...config,
      },
      sink: NO_SINK,
      limits,
      now: () => clock,
      backgroundLoops: false,
    });
    open.push(sut);
    await sut.start();
    return sut;
  }

  it('caps streams over all tenants at max_global_streams; existing streams keep taking entries', async () => {
    const sut = await start({ max_global_streams: 3 });
    expect((await sut.push('a', streams('1', '2'))).errors).toEqual([]);
    const b = await sut.push('b', streams('1', '2', '3'));
    expect(b.appended).toBe(1);
    expect(b.errors).toHaveLength(1);
    expect(b.errors[0]).toMatchObject({
      httpStatus: 429,
      reason: 'stream_limit',
      discardedEntries: 2,
      message: GLOBAL_TEXT('b', '{s="3"}'),
    });
    expect(sut.streamCount).toBe(3);
    // Full: new streams of any tenant are refused, known ones still append.
    expect((await sut.push('c', streams('9'))).errors[0].message).toBe(GLOBAL_TEXT('c', '{s="9"}'));
    const more = await sut.push('a', {
      streams: [{ ...streams('1').streams[0], entries: [entry('again')] }],
    });
    expect(more).toMatchObject({ appended: 1, errors: [] });
    expect(sut.metrics().discarded_entries_total).toEqual({ stream_limit: 3 });
  });

  it('frees room when idle streams are flushed and removed', async () => {
    const sut = await start({ max_global_streams: 2, chunk_idle_period: 1_000 });
    await sut.push('a', streams('1', '2'));
    expect((await sut.push('b', streams('1'))).errors).toHaveLength(1);
    clock += 2_000;
    await sut.flushCheck(); // cuts the idle heads, flushes them, removes the empty streams
    expect(sut.streamCount).toBe(0);
    expect((await sut.push('b', streams('1', '2'))).errors).toEqual([]);
    expect(sut.streamCount).toBe(2);
  });

  it('counts replayed streams after a restart', async () => {
    const first = await start({ max_global_streams: 2 });
    await first.push('a', streams('1', '2'));
    await first.shutdown({ flush: false });
    const second = await start({ max_global_streams: 2 });
    expect(second.streamCount).toBe(2);
    expect((await second.push('b', streams('x'))).errors[0].message).toBe(
      GLOBAL_TEXT('b', '{s="x"}'),
    );
  });

  it('answers any number of refused streams with one error, the last stream named', async () => {
    const sut = await start({ max_global_streams: 0 }, 2);
    const names = Array.from({ length: 1_000 }, (_, i) => String(i));
    const { errors, appended } = await sut.push('t', streams(...names));
    expect(appended).toBe(2);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      reason: 'stream_limit',
      discardedEntries: 998,
      message: TENANT_TEXT('t', '{s="999"}'),
    });
  });

  describe('streamAdmission (the pre-check the distributor runs while decoding)', () => {
    it("admits known streams and new ones up to the tenant's allowance, refusing the rest as one error", async () => {
      const sut = await start({ max_global_streams: 0 }, 3);
      await sut.push('t', streams('old'));
      const admission = sut.streamAdmission('t');
      const e = [entry('xy')];
      const admitted = ['old', 'n1', 'n2', 'n3', 'n1', 'n4', 'old'].map((n) =>
        admission.admit(`{s="${n}"}`, e),
      );
      expect(admitted).toEqual([true, true, true, false, true, false, true]);
      expect(admission.refusal()).toMatchObject({
        httpStatus: 429,
        reason: 'stream_limit',
        discardedEntries: 2,
        discardedBytes: 4,
        message: TENANT_TEXT('t', '{s="n4"}'),
      });
      expect(sut.metrics().discarded_entries_total).toEqual({ stream_limit: 2 });
      // Another tenant has its own allowance.
      expect(sut.streamAdmission('u').admit('{s="n3"}', e)).toBe(true);
      expect(sut.streamAdmission('u').refusal()).toBeUndefined();
    });

    it('refuses new streams past max_global_streams, naming the flag', async () => {
      const sut = await start({ max_global_streams: 2 });
      await sut.push('a', streams('1'));
      const admission = sut.streamAdmission('b');
      expect(admission.admit('{s="1"}', [entry('x')])).toBe(true);
      expect(admission.admit('{s="2"}', [entry('x')])).toBe(false);
      expect(admission.refusal()?.message).toBe(GLOBAL_TEXT('b', '{s="2"}'));
    });
  });
});
