import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClusterOverview, LogServiceView } from '@logsvc/api';
import { makeCa, signCert, writeExtensions } from '@logsvc/rpc/testing';
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

/** The status of the LogService the API server stand-in answers. */
const LOGSERVICE_STATUS = {
  observedGeneration: 3,
  lastObservedTime: '2026-12-02T01:00:00Z',
  version: '0.1.0',
  conditions: [
    {
      type: 'Progressing',
      status: 'True',
      reason: 'RollingIngesters',
      message: 'replacing logs-ingester-1',
      lastTransitionTime: '2026-12-02T00:59:00Z',
    },
  ],
  components: {
    ingester: { kind: 'StatefulSet', replicas: 3, readyReplicas: 2, updatedReplicas: 1 },
  },
  rollout: {
    phase: 'Replacing',
    pod: 'logs-ingester-1',
    message: 'waiting for it to be ready',
  },
};

describe('GET /ui/api/logservice of a process started by the operator', () => {
  let dir: string;
  let proc: MainRun | undefined;
  let url: string;
  const configPath = () => join(dir, 'config.yaml');
  const logServicePath = () => join(dir, 'logservice.yaml');
  let configText: string;
  let apiServer: Server | undefined;

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
    const api = await fakeApiServer(dir);
    apiServer = api.server;
    proc = runMain([`-config.file=${configPath()}`, '-config.expand-env=true'], {
      ...process.env,
      HTTP_PORT: String(port),
      LOGSVC_LOGSERVICE_FILE: logServicePath(),
      // As the kubelet sets them, and the service account directory the node agent's way.
      KUBERNETES_SERVICE_HOST: '127.0.0.1',
      KUBERNETES_SERVICE_PORT: String(api.port),
      LOGSVC_SERVICEACCOUNT_DIR: api.serviceAccountDir,
    });
    url = `http://127.0.0.1:${port}`;
    await waitReady(url, proc, { timeoutMs: 30_000 });
  }, 30_000);

  afterAll(async () => {
    if (proc && proc.child.exitCode === null) {
      proc.child.kill('SIGTERM');
      await proc.exited;
    }
    apiServer?.close();
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

  it("shows the LogService's rollout status, read from the API server with the pod's token", async () => {
    const got = await view();
    expect(got.status).toEqual({ generation: 3, ...LOGSERVICE_STATUS });
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
    // Not in a pod: the view says why it has no status.
    expect(got.status.error).toContain('KUBERNETES_SERVICE_HOST is not set');
  });
});

/**
 * An API server over HTTPS that answers the LogService logs of team-a (with a status) to the
 * bearer token it wrote into the service account directory, 403 to any other.
 */
async function fakeApiServer(
  dir: string,
): Promise<{ server: Server; port: number; serviceAccountDir: string }> {
  const pki = join(dir, 'pki');
  mkdirSync(pki);
  makeCa(pki, 'ca');
  writeExtensions(pki, ['subjectAltName=IP:127.0.0.1']);
  signCert(pki, 'apiserver', 'ca');
  const serviceAccountDir = join(dir, 'serviceaccount');
  mkdirSync(serviceAccountDir);
  writeFileSync(join(serviceAccountDir, 'token'), 'pod-token\n');
  writeFileSync(join(serviceAccountDir, 'ca.crt'), readFileSync(join(pki, 'ca.crt')));
  const resource = {
    apiVersion: 'logsvc.io/v1alpha1',
    kind: 'LogService',
    metadata: { name: 'logs', namespace: 'team-a', generation: 3 },
    status: LOGSERVICE_STATUS,
  };
  const server = createServer(
    {
      key: readFileSync(join(pki, 'apiserver.key')),
      cert: readFileSync(join(pki, 'apiserver.crt')),
    },
    (req, res) => {
      const path = '/apis/logsvc.io/v1alpha1/namespaces/team-a/logservices/logs';
      const ok = req.headers.authorization === 'Bearer pod-token' && req.url === path;
      res.writeHead(ok ? 200 : 403, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ok ? resource : { kind: 'Status', message: 'forbidden' }));
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, serviceAccountDir };
}
