import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { forgetInstance } from './forget';
import type { Kv } from './kv';
import { Lifecycler, type LifecyclerOptions } from './lifecycler';
import { InMemoryKv } from './memory-kv';
import { ringOf } from './testing/ring-fixtures';
import { withInstance } from './ring-edit';
import { decodeRing, encodeRing, type InstanceDesc, type RingDesc } from './types';

const KEY = 'collectors/ring';
const START = Date.UTC(2025, 0, 1);

let kv: InMemoryKv;
const started: Lifecycler[] = [];

function lifecycler(id: string, over: Partial<LifecyclerOptions> = {}): Lifecycler {
  const lc = new Lifecycler({
    kv,
    key: KEY,
    id,
    addr: `${id}:9095`,
    numTokens: 4,
    heartbeatPeriodMs: 5_000,
    heartbeatTimeoutMs: 60_000,
    joinAfterMs: 1_000,
    minReadyDurationMs: 15_000,
    finalSleepMs: 0,
    ...over,
  });
  started.push(lc);
  return lc;
}

async function ring(): Promise<RingDesc> {
  return decodeRing(await kv.get(KEY));
}

beforeEach(() => {
  vi.useFakeTimers({ now: START });
  kv = new InMemoryKv();
});

afterEach(async () => {
  // Stop heartbeats of the lifecyclers a test left running.
  await Promise.all(started.splice(0).map((lc) => lc.stop().catch(() => undefined)));
  vi.useRealTimers();
});

describe('Lifecycler joining', () => {
  it('registers PENDING without tokens, then takes tokens and goes ACTIVE after joinAfter', async () => {
    const lc = lifecycler('ing-1', { zone: 'z1' });
    await lc.start();
    expect(lc.state).toBe('PENDING');
    expect((await ring()).instances['ing-1']).toMatchObject({
      state: 'PENDING',
      tokens: [],
      addr: 'ing-1:9095',
      zone: 'z1',
      registeredMs: START,
      heartbeatMs: START,
    });

    await vi.advanceTimersByTimeAsync(999);
    expect(lc.state).toBe('PENDING');
    await vi.advanceTimersByTimeAsync(1);
    expect(lc.state).toBe('ACTIVE');
    const entry = (await ring()).instances['ing-1'];
    expect(entry.state).toBe('ACTIVE');
    expect(entry.tokens).toHaveLength(4);
    expect(entry.tokens).toEqual(lc.tokens);
  });

  it('never takes a token another member owns', async () => {
    await kv.cas(KEY, () => encodeRing(ringOf({ other: { tokens: [10, 20, 30] } })));
    const values = [10, 20, 5, 30, 7, 20, 8, 9];
    let n = 0;
    const lc = lifecycler('ing-1', { random: () => values[n++] });
    await lc.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(lc.tokens).toEqual([5, 7, 8, 9]);
  });

  it('stays PENDING without autoJoin until told to change state', async () => {
    const lc = lifecycler('ing-1', { autoJoin: false });
    await lc.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(lc.state).toBe('PENDING');
    await lc.changeState('ACTIVE');
    expect(lc.tokens).toHaveLength(4);
    expect((await ring()).instances['ing-1'].state).toBe('ACTIVE');
    await expect(lc.changeState('PENDING')).rejects.toThrow(
      'Changing instance state from ACTIVE -> PENDING is disallowed',
    );
  });

  it('lists two lifecyclers sharing a KV store, each heartbeating its own entry', async () => {
    const a = lifecycler('ing-a');
    const b = lifecycler('ing-b');
    await a.start();
    await b.start();
    await vi.advanceTimersByTimeAsync(1_000);
    const desc = await ring();
    expect(Object.keys(desc.instances).sort()).toEqual(['ing-a', 'ing-b']);
    expect(desc.instances['ing-a'].state).toBe('ACTIVE');
    expect(desc.instances['ing-b'].state).toBe('ACTIVE');
    const aTokens = new Set(a.tokens);
    expect(b.tokens.some((t) => aTokens.has(t))).toBe(false);

    await vi.advanceTimersByTimeAsync(5_000);
    const later = await ring();
    expect(later.instances['ing-a'].heartbeatMs).toBe(START + 5_000);
    expect(later.instances['ing-b'].heartbeatMs).toBe(START + 5_000);
    expect(later.instances['ing-a'].registeredMs).toBe(START);
  });

  it('leaves entries of other members exactly as they were', async () => {
    const foreign = ringOf({ other: { tokens: [1, 2], state: 'LEAVING', heartbeatMs: 7 } });
    await kv.cas(KEY, () => encodeRing(foreign));
    const lc = lifecycler('ing-1');
    await lc.start();
    await vi.advanceTimersByTimeAsync(11_000);
    expect((await ring()).instances.other).toEqual(foreign.instances.other);
  });
});

describe('Lifecycler heartbeats', () => {
  it('logs a failing KV store and heartbeats again once it is back', async () => {
    let failing = false;
    const flaky: Kv = {
      get: (k) => kv.get(k),
      cas: (k, u) => (failing ? Promise.reject(new Error('etcd unreachable')) : kv.cas(k, u)),
      delete: (k) => kv.delete(k),
      watch: (k, f) => kv.watch(k, f),
      close: () => kv.close(),
    };
    const warn = vi.fn();
    const lc = lifecycler('ing-1', { kv: flaky, logger: { info: () => undefined, warn } });
    await lc.start();
    failing = true;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ err: expect.objectContaining({ message: 'etcd unreachable' }) }),
      expect.stringContaining('failed'),
    );
    failing = false;
    await vi.advanceTimersByTimeAsync(5_000);
    expect((await ring()).instances['ing-1'].heartbeatMs).toBe(START + 10_000);
  });

  it('registers again when its entry disappears (forgotten or KV reset)', async () => {
    const lc = lifecycler('ing-1');
    await lc.start();
    await vi.advanceTimersByTimeAsync(1_000);
    const tokens = lc.tokens;
    expect(await forgetInstance(kv, KEY, 'ing-1')).toBe(true);
    expect((await ring()).instances['ing-1']).toBeUndefined();
    expect(await forgetInstance(kv, KEY, 'ing-1')).toBe(false);
    await vi.advanceTimersByTimeAsync(5_000);
    expect((await ring()).instances['ing-1']).toMatchObject({
      state: 'ACTIVE',
      tokens,
      registeredMs: START + 5_000,
    });
  });
});

describe('Lifecycler restarts', () => {
  it('keeps the tokens of its existing entry and is ACTIVE at once', async () => {
    const first = lifecycler('ing-1', { unregisterOnShutdown: false });
    await first.start();
    await vi.advanceTimersByTimeAsync(1_000);
    const tokens = first.tokens;
    await first.stop();
    expect((await ring()).instances['ing-1'].state).toBe('LEAVING');

    const second = lifecycler('ing-1');
    await second.start();
    expect(second.state).toBe('ACTIVE');
    expect(second.tokens).toEqual(tokens);
    expect((await ring()).instances['ing-1']).toMatchObject({
      state: 'ACTIVE',
      tokens,
      registeredMs: START,
    });
  });

  it('restarts a join that was cut short (JOINING) from PENDING', async () => {
    await kv.cas(KEY, () =>
      encodeRing(ringOf({ 'ing-1': { tokens: [1, 2], state: 'JOINING', addr: 'ing-1:9095' } })),
    );
    const lc = lifecycler('ing-1');
    await lc.start();
    expect(lc.state).toBe('PENDING');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(lc.state).toBe('ACTIVE');
    // Keeps the tokens it had and adds the missing ones.
    expect(lc.tokens).toHaveLength(4);
    expect(lc.tokens).toEqual(expect.arrayContaining([1, 2]));
  });

  describe('with a tokens file', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'lifecycler-'));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('comes back with the same tokens after leaving the ring', async () => {
      const tokensFilePath = join(dir, 'tokens.json');
      const first = lifecycler('ing-1', { tokensFilePath, autoJoin: false });
      await first.start();
      await first.changeState('ACTIVE');
      const tokens = first.tokens;
      await first.stop();
      expect((await ring()).instances['ing-1']).toBeUndefined();

      const second = lifecycler('ing-1', { tokensFilePath });
      await second.start();
      expect(second.state).toBe('ACTIVE');
      expect(second.tokens).toEqual(tokens);
      expect((await ring()).instances['ing-1'].tokens).toEqual(tokens);
    });

    it('joins as usual when the file is corrupt, and says so', async () => {
      const tokensFilePath = join(dir, 'tokens.json');
      const { writeFile } = await import('node:fs/promises');
      await writeFile(tokensFilePath, 'not json');
      const warn = vi.fn();
      const lc = lifecycler('ing-1', { tokensFilePath, logger: { info: () => undefined, warn } });
      await lc.start();
      expect(lc.state).toBe('PENDING');
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ path: tokensFilePath }),
        'error loading tokens from file',
      );
    });
  });
});

describe('Lifecycler.stop', () => {
  it('is LEAVING while beforeLeave runs, waits finalSleep, then removes its entry', async () => {
    const lc = lifecycler('ing-1', { finalSleepMs: 30_000 });
    await lc.start();
    await vi.advanceTimersByTimeAsync(1_000);

    let stateDuringFlush: string | undefined;
    const stopped = lc.stop({
      beforeLeave: async () => {
        stateDuringFlush = (await ring()).instances['ing-1'].state;
      },
    });
    await vi.advanceTimersByTimeAsync(29_000);
    expect(stateDuringFlush).toBe('LEAVING');
    expect(lc.state).toBe('LEAVING');
    // Still there, still heartbeating, during the final sleep.
    expect((await ring()).instances['ing-1'].heartbeatMs).toBe(START + 30_000);
    await vi.advanceTimersByTimeAsync(1_000);
    await stopped;
    expect((await ring()).instances['ing-1']).toBeUndefined();

    // Heartbeats have stopped: the entry does not come back.
    await vi.advanceTimersByTimeAsync(20_000);
    expect((await ring()).instances['ing-1']).toBeUndefined();
  });

  it('still removes its entry when beforeLeave fails, and reports the failure', async () => {
    const lc = lifecycler('ing-1');
    await lc.start();
    await expect(
      lc.stop({ beforeLeave: () => Promise.reject(new Error('flush failed')) }),
    ).rejects.toThrow('flush failed');
    expect((await ring()).instances['ing-1']).toBeUndefined();
  });
});

describe('Lifecycler.checkReady', () => {
  /** Changes the ring member `other` as another process would. */
  const changeOther = (over: Partial<InstanceDesc>) =>
    kv.cas(KEY, (v) => {
      const desc = decodeRing(v);
      return encodeRing(withInstance(desc, { ...desc.instances.other, ...over }));
    });

  it('waits for tokens, for every member to be ACTIVE, then for minReadyDuration', async () => {
    await kv.cas(KEY, () =>
      encodeRing(ringOf({ other: { tokens: [7], state: 'PENDING', heartbeatMs: START } })),
    );
    const lc = lifecycler('ing-1');
    await lc.start();
    expect(lc.checkReady()).toBe('this instance owns no tokens');

    await vi.advanceTimersByTimeAsync(1_000);
    expect(lc.checkReady()).toBe('instance other:9095 in state PENDING');

    await changeOther({ state: 'ACTIVE', heartbeatMs: Date.now() });
    // Seen at the next heartbeat.
    await vi.advanceTimersByTimeAsync(4_000);
    expect(lc.checkReady()).toBe('waiting for 15s after being ready');
    await vi.advanceTimersByTimeAsync(14_999);
    expect(lc.checkReady()).toBe('waiting for 15s after being ready');
    await vi.advanceTimersByTimeAsync(1);
    expect(lc.checkReady()).toBeNull();

    // Once ready it stays ready, whatever happens to the ring.
    await vi.advanceTimersByTimeAsync(120_000);
    expect(lc.checkReady()).toBeNull();
  });

  it('restarts the minReadyDuration wait when readiness is lost', async () => {
    await kv.cas(KEY, () => encodeRing(ringOf({ other: { tokens: [7], heartbeatMs: START } })));
    const lc = lifecycler('ing-1');
    await lc.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(lc.checkReady()).toBe('waiting for 15s after being ready');
    // `other` stops heartbeating: past the 60s timeout it is dead.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(lc.checkReady()).toBe('instance other:9095 past heartbeat timeout');
    // It comes back: the wait starts over, though 15s have long passed since it first began.
    await changeOther({ heartbeatMs: Date.now() });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(lc.checkReady()).toBe('waiting for 15s after being ready');
  });

  it('checks only itself when ring health is not required', async () => {
    await kv.cas(KEY, () => encodeRing(ringOf({ other: { tokens: [7], state: 'LEAVING' } })));
    const lc = lifecycler('ing-1', { readinessCheckRingHealth: false, minReadyDurationMs: 0 });
    await lc.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(lc.checkReady()).toBeNull();
  });
});

describe('Lifecycler auto-forget', () => {
  it('forgets a member whose heartbeat is older than autoForgetUnhealthyAfterMs, never itself', async () => {
    const keeper = lifecycler('c-1', {
      joinAfterMs: 0,
      heartbeatPeriodMs: 1_000,
      heartbeatTimeoutMs: 2_000,
      autoForgetUnhealthyAfterMs: 20_000,
    });
    await keeper.start();
    // c-2 was killed without leaving: its entry stays with its last heartbeat (now).
    await kv.cas(KEY, (cur) => {
      const desc = decodeRing(cur);
      const dead = { ...desc.instances['c-1'], id: 'c-2', addr: 'c-2:9095', tokens: [7] };
      return encodeRing({ ...desc, instances: { ...desc.instances, 'c-2': dead } });
    });
    await vi.advanceTimersByTimeAsync(20_000);
    expect(Object.keys((await ring()).instances).sort()).toEqual(['c-1', 'c-2']);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(Object.keys((await ring()).instances)).toEqual(['c-1']);
  });

  it('forgets nobody without the option', async () => {
    const keeper = lifecycler('c-1', { joinAfterMs: 0, heartbeatPeriodMs: 1_000 });
    await keeper.start();
    await kv.cas(KEY, (cur) => {
      const desc = decodeRing(cur);
      const dead = { ...desc.instances['c-1'], id: 'c-2', addr: 'c-2:9095', tokens: [7] };
      return encodeRing({ ...desc, instances: { ...desc.instances, 'c-2': dead } });
    });
    await vi.advanceTimersByTimeAsync(600_000);
    expect(Object.keys((await ring()).instances).sort()).toEqual(['c-1', 'c-2']);
  });
});
