import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseLabels } from '@logsvc/api';
import { parseConfig } from '@logsvc/config';
import { encodePushProtobuf } from '@logsvc/push';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MainRun, assertBuilt, freePort, runMain, waitReady } from './binary';
import { readFromStore } from './harness';

interface Run extends MainRun {
  url: string;
}

async function run(dataDir: string, flags: readonly string[] = []): Promise<Run> {
  const port = await freePort();
  const r = {
    ...runMain([
      `-server.http-listen-port=${port}`,
      '-server.http-listen-address=127.0.0.1',
      `-common.path-prefix=${dataDir}`,
      '-auth.enabled=false',
      ...flags,
    ]),
    url: `http://127.0.0.1:${port}`,
  };
  await waitReady(r.url, r, { pollMs: 50 });
  return r;
}

function pushBody(batch: number, size: number): Buffer {
  const t0 = BigInt(Date.now()) * 1_000_000n;
  return encodePushProtobuf({
    streams: [
      {
        labels: parseLabels(`{app="load", shard="${batch % 3}"}`),
        entries: Array.from({ length: size }, (_, i) => ({
          timestampNs: t0 + BigInt(i),
          line: Buffer.from(`batch ${batch} line ${i}`),
          structuredMetadata: [],
        })),
      },
    ],
  });
}

const push = (r: Run, body: Buffer) =>
  fetch(`${r.url}/loki/api/v1/push`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-protobuf' },
    body,
  });

describe('the server binary: shutdown and crash recovery', () => {
  const dirs: string[] = [];
  const runs: Run[] = [];
  const newDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'logsvc-ingester-proc-'));
    dirs.push(d);
    return d;
  };
  beforeAll(() => {
    assertBuilt();
  });
  afterEach(() => {
    for (const r of runs.splice(0)) if (r.child.exitCode === null) r.child.kill('SIGKILL');
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('/ingester/shutdown flushes, answers 204 and the process exits 0', async () => {
    const dir = newDir();
    const r = await run(dir);
    runs.push(r);
    for (let b = 0; b < 3; b++) expect((await push(r, pushBody(b, 50))).status).toBe(204);

    const res = await fetch(`${r.url}/ingester/shutdown`, { method: 'POST' });
    expect(res.status).toBe(204);
    expect(await r.exited).toBe(0);

    const stored = await readFromStore(
      parseConfig({ common: { path_prefix: dir } }),
      'fake',
      '{app="load"}',
    );
    expect(stored.length).toBe(150);
    expect(new Set(stored.map((e) => e.line)).size).toBe(150);
  });

  it('keeps every acknowledged entry exactly once across kill -9 under write load', async () => {
    const dir = newDir();
    // Checkpoints every 100 ms, so replay starts from a checkpoint plus the segments after it.
    const first = await run(dir, ['-ingester.checkpoint-duration=100ms']);
    runs.push(first);
    const acked: string[] = [];
    let stop = false;
    // Four concurrent writers, so the kill lands between and inside group commits.
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let b = w; !stop; b += 4) {
        try {
          const res = await push(first, pushBody(b, 20));
          if (res.status === 204) for (let i = 0; i < 20; i++) acked.push(`batch ${b} line ${i}`);
        } catch {
          return; // the process is gone
        }
      }
    });
    const checkpointed = (): boolean =>
      readdirSync(join(dir, 'wal')).some((f) => /^checkpoint\.\d+$/.test(f));
    while (acked.length < 2000 || !checkpointed()) await new Promise((res) => setTimeout(res, 10));
    first.child.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    await first.exited;

    const second = await run(dir);
    runs.push(second);
    expect((await fetch(`${second.url}/flush`, { method: 'POST' })).status).toBe(204);
    const stored = await readFromStore(
      parseConfig({ common: { path_prefix: dir } }),
      'fake',
      '{app="load"}',
    );
    const counts = new Map<string, number>();
    for (const e of stored) counts.set(e.line, (counts.get(e.line) ?? 0) + 1);
    const missing = acked.filter((line) => !counts.has(line));
    expect(missing).toEqual([]);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
