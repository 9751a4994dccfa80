import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClusterOverview, LogServiceView } from '@logsvc/api';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MainRun, assertBuilt, freePort, runMain, waitReady } from './binary';
import { type TestServer, startTestServer } from './harness';

// The LogService view of a process the operator would start: the built binary with
// -config.file and LOGSVC_LOGSERVICE_FILE (set on that process only), as in a pod.
const logServiceFile = (generation: number, replicas: number) =>
  [
    'apiVersion: logsvc.io/v1alpha1',
    'kind: LogService',
    'metadata:',
    '  name: logs',
    '  namespace: team-a',
    `  generation: ${generation}`,
    'spec:',
    '  version: 0.1.0',
    '  mode: SingleBinary',
    '  components:',
    '    singleBinary:',
    `      replicas: ${replicas}`,
    '  limits:',
    '    global:',
    '      maxLineSize: 512KB',
    '',
  ].join('\n');

describe('GET /ui/api/logservice of a process started by the operator', () => {
  let dir: string;
  let proc: MainRun | undefined;
  let url: string;
  const configPath = () => join(dir, 'config.yaml');
  const logServicePath = () => join(dir, 'logservice.yaml');
  let configText: string;

  beforeAll(async () => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'logsvc-ls-'));
    const port = await freePort();
    configText = [
      '# rendered by the logsvc operator',
      'auth_enabled: false',
      'server:',
      '  http_listen_address: 127.0.0.1',
      '  http_listen_port: ${HTTP_PORT}',
      '  grpc_listen_port: 0',
      '  log_level: warn',
      'common:',
      `  path_prefix: ${dir}/data`,
      '  ring:',
      '    kvstore:',
      '      store: inmemory',
      '      etcd:',
      '        password: hunter2',
      'limits_config:',
      '  max_line_size: 512KB',
      '',
    ].join('\n');
    writeFileSync(configPath(), configText);
    writeFileSync(logServicePath(), logServiceFile(3, 1));
    proc = runMain([`-config.file=${configPath()}`, '-config.expand-env=true'], {
      ...process.env,
      HTTP_PORT: String(port),
      LOGSVC_LOGSERVICE_FILE: logServicePath(),
    });
    url = `http://127.0.0.1:${port}`;
    await waitReady(url, proc, { timeoutMs: 30_000 });
  }, 30_000);

  afterAll(async () => {
    if (proc && proc.child.exitCode === null) {
      proc.child.kill('SIGTERM');
      await proc.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  const view = async (path = '/ui/api/logservice'): Promise<LogServiceView> => {
    const res = await fetch(url + path);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as LogServiceView;
  };

  it('answers the spec and the config file as the process read it, secrets masked', async () => {
    const got = await view();
    expect(got).toMatchObject({
      name: 'logs',
      namespace: 'team-a',
      generation: 3,
      renderedConfigSource: 'config-file',
      configFileChanged: false,
    });
    expect(parse(got.specYaml)).toEqual({
      version: '0.1.0',
      mode: 'SingleBinary',
      components: { singleBinary: { replicas: 1 } },
      limits: { global: { maxLineSize: '512KB' } },
    });
    // The file's own text: comment and ${VAR} reference kept (not the expanded running config).
    expect(got.renderedConfigYaml).toContain('# rendered by the logsvc operator');
    expect(got.renderedConfigYaml).toContain('http_listen_port: ${HTTP_PORT}');
    expect(got.renderedConfigYaml).not.toContain('hunter2');
    expect(got.renderedConfigYaml).toContain('password: "********"');
  });

  it('is reachable per instance through the proxy', async () => {
    const overview = (await (await fetch(`${url}/ui/api/overview`)).json()) as ClusterOverview;
    const id = encodeURIComponent(overview.instances[0].id);
    expect((await view(`/ui/api/instances/${id}/ui/api/logservice`)).generation).toBe(3);
  });

  it('shows a newer spec at once, and tells when the config file changed since the start', async () => {
    writeFileSync(logServicePath(), logServiceFile(4, 2));
    writeFileSync(configPath(), configText.replace('512KB', '1MB'));
    const got = await view();
    expect(got.generation).toBe(4);
    expect(parse(got.specYaml).components.singleBinary.replicas).toBe(2);
    // Still the config this process runs with, until it is restarted.
    expect(got.renderedConfigYaml).toContain('max_line_size: 512KB');
    expect(got.configFileChanged).toBe(true);
  });

  it('answers a clear error for a file that is not a LogService, and 404 once it is gone', async () => {
    writeFileSync(logServicePath(), 'kind: ConfigMap\n');
    const bad = await fetch(`${url}/ui/api/logservice`);
    expect(bad.status).toBe(500);
    expect(await bad.text()).toContain('is not a LogService file: kind is "ConfigMap"');
    rmSync(logServicePath());
    const gone = await fetch(`${url}/ui/api/logservice`);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain('cannot be read');
  });
});

describe('GET /ui/api/logservice of a process started without a config file', () => {
  let sut: TestServer;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'logsvc-ls-'));
    writeFileSync(join(dir, 'logservice.yaml'), logServiceFile(1, 1));
    // Through the server's options: no environment variable of this test process is touched.
    sut = await startTestServer({
      config: { auth_enabled: false, limits_config: { max_query_series: 77 } },
      startupFiles: { logServiceFile: join(dir, 'logservice.yaml') },
    });
  });
  afterAll(async () => {
    await sut.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows its running config instead, secrets masked as in /config', async () => {
    const res = await fetch(`${sut.url}/ui/api/logservice`);
    expect(res.status).toBe(200);
    const got = (await res.json()) as LogServiceView;
    expect(got.renderedConfigSource).toBe('running-config');
    expect(got.configFileChanged).toBe(false);
    expect(got.renderedConfigYaml).toBe(await (await fetch(`${sut.url}/config`)).text());
    expect(got.renderedConfigYaml).toContain('max_query_series: 77');
  });
});
