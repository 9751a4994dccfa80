import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIFTED_LIMITS } from '@logsvc/bench/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushOk } from '../support/loki-api';
import { type ServerProcess, startServer } from '../support/server';

/** Well inside one retry of Loki's flush_op_backoff (10 s, 20 s, 40 s, ... 10 tries). */
const ANSWER_WITHIN_MS = 8_000;
const STREAMS = 20;

/** An 8 MB tmpfs for the server's data directory, or why there is none (mounting needs root). */
function mountTmpfs(dir: string): string | undefined {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', dir], { stdio: 'pipe' });
    return undefined;
  } catch (err) {
    return `cannot mount a tmpfs (${(err as Error).message.split('\n')[0]})`;
  }
}

/**
 * With the disk nearly full, `POST /flush` used to give no answer within a minute: the first
 * chunk write that failed retried on Loki's backoff schedule, and every other one waited.
 */
describe('POST /flush on a nearly full disk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flush-full-disk-'));
  const unavailable = mountTmpfs(dir);
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    if (unavailable) return;
    server = await startServer({
      dataDir: dir,
      flags: [...LIFTED_LIMITS, '-ingester.wal-enabled=true'],
    });
  });

  afterAll(async () => {
    await server?.stop(30_000);
    if (!unavailable) execFileSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  });

  it.skipIf(unavailable !== undefined)('answers 500 with the reason, in seconds', async () => {
    const url = server!.url;
    const nowNs = BigInt(Date.now()) * 1_000_000n;
    const streams = Array.from({ length: STREAMS }, (_, s) => ({
      stream: { app: 'full', id: String(s) },
      values: Array.from({ length: 200 }, (_, i) => [
        (nowNs + BigInt(i)).toString(),
        `stream ${s} line ${i} ${'x'.repeat(100)}`,
      ]),
    }));
    await pushOk(url, streams);

    // Leave about 4 KB free: less than the chunks need.
    const { bavail, bsize } = statfsSync(dir);
    writeFileSync(join(dir, 'filler'), Buffer.alloc(Math.max(0, bavail * bsize - 4096)));

    const startedAt = Date.now();
    const res = await fetch(`${url}/flush`, {
      method: 'POST',
      signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
    });
    expect(Date.now() - startedAt).toBeLessThan(ANSWER_WITHIN_MS);
    expect(res.status).toBe(500);
    expect(await res.text()).toMatch(
      /^flush failed: \d+ streams failed to flush: put .*ENOSPC: no space left on device/,
    );
  });
});
