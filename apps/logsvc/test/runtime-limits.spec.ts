import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestServer, startTestServer } from './harness';

// The operator writes a LogService's global limits under `*` in runtime.yaml, so that changing
// one reaches running pods without a restart (docs/operator.md). This is that path on a server.
describe('limits of every tenant in the runtime config', () => {
  let sut: TestServer;
  let dir: string;
  let runtimeFile: string;

  const push = async (tenant: string, line: string): Promise<number> => {
    const values = [[(BigInt(Date.now()) * 1_000_000n).toString(), line]];
    const res = await fetch(`${sut.url}/loki/api/v1/push`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Scope-OrgID': tenant },
      body: JSON.stringify({ streams: [{ stream: { app: 'runtime-limits' }, values }] }),
    });
    await res.text();
    return res.status;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'logsvc-runtime-limits-'));
    runtimeFile = join(dir, 'runtime.yaml');
    writeFileSync(runtimeFile, "overrides:\n  '*':\n    max_line_size: 1KB\n");
    sut = await startTestServer({
      config: { auth_enabled: true, runtime_config: { file: runtimeFile, period: '1s' } },
    });
  });
  afterAll(async () => {
    await sut.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies a changed global limit to every tenant without a restart', async () => {
    const line = 'x'.repeat(200);
    expect(await push('team-a', line)).toBe(204);
    expect(await push('team-b', 'y'.repeat(2000))).toBe(400);

    writeFileSync(
      runtimeFile,
      "overrides:\n  '*':\n    max_line_size: 100B\n  team-b:\n    max_line_size: 1KB\n",
    );
    // Re-read every second; polled well past that on a loaded machine.
    await vi.waitFor(async () => expect(await push('team-a', line)).toBe(400), {
      timeout: 30_000,
      interval: 500,
    });
    expect(await push('team-c', line)).toBe(400);
    // A tenant's own key stays over the one of every tenant.
    expect(await push('team-b', line)).toBe(204);
  }, 60_000);
});
