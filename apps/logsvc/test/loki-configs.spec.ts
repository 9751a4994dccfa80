// Loki 3.4.6's own example configs (libs/config/fixtures/loki-3.4) given to the built binary:
// `-verify-config` accepts the ones logsvc can run and names the reason for the others; the
// filesystem ones start unchanged (only directories and ports moved by flags) and get ready.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MainRun, assertBuilt, freePort, runMain, waitReady } from './binary';

const FIXTURES = resolve(__dirname, '../../../libs/config/fixtures/loki-3.4');

const VALID = [
  '1-Local-Configuration-Example.yaml',
  '2-S3-Cluster-Example.yaml',
  'loki-docker-config.yaml',
  'loki-local-config.yaml',
  'loki-local-with-memcached.yaml',
];
const FILESYSTEM = VALID.filter((f) => f !== '2-S3-Cluster-Example.yaml');
const REFUSED: Record<string, string> = {
  '4-GCS-Example.yaml': 'storage_config.gcs.bucket_name: not supported by logsvc',
  '7-Schema-Migration-Snippet.yaml': 'logsvc has no boltdb-shipper index',
  'getting-started-loki-config.yaml':
    'memberlist.join_members: logsvc has no gossip ring store: use etcd',
};

describe("the built binary with Loki 3.4's example configs", () => {
  const dirs: string[] = [];
  const runs: MainRun[] = [];
  beforeAll(() => {
    assertBuilt();
  });
  afterAll(() => {
    for (const r of runs) if (r.child.exitCode === null) r.child.kill('SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('-verify-config says `config is valid` (exit 0) or names the problem (exit 1), starting nothing', async () => {
    const files = [...VALID, ...Object.keys(REFUSED)];
    // A few at a time: each is a Node process, and the machine may be shared.
    const results: { file: string; code: number | null; stderr: string }[] = [];
    for (let i = 0; i < files.length; i += 4) {
      const batch = files.slice(i, i + 4).map(async (file) => {
        const r = runMain(['-verify-config', `-config.file=${join(FIXTURES, file)}`]);
        return { file, code: await r.exited, stderr: r.stderr() };
      });
      results.push(...(await Promise.all(batch)));
    }
    for (const { file, code, stderr } of results) {
      if (VALID.includes(file)) {
        expect({ file, code, last: stderr.trim().split('\n').at(-1) }).toEqual({
          file,
          code: 0,
          last: 'config is valid',
        });
      } else {
        expect({ file, code }).toEqual({ file, code: 1 });
        expect(stderr).toContain(REFUSED[file]);
        expect(stderr).not.toContain('config is valid');
      }
    }
    const local = results.find((r) => r.file === 'loki-local-config.yaml')!;
    expect(local.stderr).toContain(
      'warning: frontend.encoding: has no effect in logsvc: logsvc passes sub-queries',
    );
  }, 150_000);

  it('reports every problem of a file in one run, each with its line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'logsvc-loki-configs-'));
    dirs.push(dir);
    const file = join(dir, 'bad.yaml');
    writeFileSync(
      file,
      [
        'limits_config:',
        '  max_line_sise: 1MB',
        '  max_query_series: lots',
        'storage_config:',
        '  bigtable:',
        '    project: p',
        '',
      ].join('\n'),
    );
    const r = runMain(['-verify-config', `-config.file=${file}`]);
    expect(await r.exited).toBe(1);
    expect(r.stderr()).toContain(
      'config error: storage_config.bigtable.project: not supported by logsvc: logsvc has no bigtable object store client',
    );
    expect(r.stderr()).toContain(
      `config error: limits_config.max_line_sise: unknown key (at ${file}:2)`,
    );
    expect(r.stderr()).toContain(
      `config error: limits_config.max_query_series: expected an integer, got "lots" (at ${file}:3)`,
    );
    expect(r.stderr()).toContain(`(at ${file}:6)`);
  }, 150_000);

  it('starts the filesystem ones unchanged and answers /ready, logging each key without effect', async () => {
    const started = await Promise.all(
      FILESYSTEM.map(async (file) => {
        const dir = mkdtempSync(join(tmpdir(), 'logsvc-loki-configs-'));
        dirs.push(dir);
        const [http, grpc] = [await freePort(), await freePort()];
        const r = runMain([
          `-config.file=${join(FIXTURES, file)}`,
          `-server.http-listen-port=${http}`,
          `-server.grpc-listen-port=${grpc}`,
          '-server.http-listen-address=127.0.0.1',
          '-server.grpc-listen-address=127.0.0.1',
          `-common.path-prefix=${dir}`,
          `-common.storage.filesystem.chunk-directory=${dir}/chunks`,
          `-common.storage.filesystem.rules-directory=${dir}/rules`,
          `-local.chunk-directory=${dir}/chunks`,
          '-log.level=info',
          '-print-config-stderr',
        ]);
        runs.push(r);
        return { file, r, url: `http://127.0.0.1:${http}` };
      }),
    );
    for (const { r, url } of started) await waitReady(url, r, { pollMs: 200 });
    const local = started.find((s) => s.file === 'loki-local-config.yaml')!;
    expect(local.r.stderr()).toMatch(
      /"key":"frontend\.encoding".*"msg":"config key has no effect in logsvc"/,
    );
    expect(local.r.stderr()).toContain('pattern_ingester:\n  enabled: true');
    for (const { r } of started) r.child.kill('SIGTERM');
    for (const { file, r } of started)
      expect({ file, code: await r.exited }).toEqual({ file, code: 0 });
  }, 150_000);
});
