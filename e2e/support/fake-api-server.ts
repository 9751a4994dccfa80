// A stand-in for the Kubernetes API server, for a logsvc process started as the operator
// starts it: HTTPS with a test CA, one object answered to one bearer token, and the service
// account directory (token, ca.crt) and environment a pod would have.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SERVICE_ACCOUNT_DIR_ENV } from '@logsvc/api';
import { makeCa, signCert, writeExtensions } from '@logsvc/rpc/testing';

export interface FakeApiServer {
  /** KUBERNETES_SERVICE_HOST/PORT and the service account directory, for the process. */
  readonly env: Record<string, string>;
  close(): void;
}

/** Answers `object` at `path` to the token it wrote; 403 to anything else. */
export async function startFakeApiServer(
  dir: string,
  path: string,
  object: unknown,
): Promise<FakeApiServer> {
  const pki = join(dir, 'pki');
  mkdirSync(pki, { recursive: true });
  makeCa(pki, 'ca');
  writeExtensions(pki, ['subjectAltName=IP:127.0.0.1']);
  signCert(pki, 'apiserver', 'ca');
  const accountDir = join(dir, 'serviceaccount');
  mkdirSync(accountDir, { recursive: true });
  writeFileSync(join(accountDir, 'token'), 'pod-token\n');
  writeFileSync(join(accountDir, 'ca.crt'), readFileSync(join(pki, 'ca.crt')));
  const server: Server = createServer(
    {
      key: readFileSync(join(pki, 'apiserver.key')),
      cert: readFileSync(join(pki, 'apiserver.crt')),
    },
    (req, res) => {
      const ok = req.headers.authorization === 'Bearer pod-token' && req.url === path;
      res.writeHead(ok ? 200 : 403, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ok ? object : { kind: 'Status', message: 'forbidden' }));
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    env: {
      KUBERNETES_SERVICE_HOST: '127.0.0.1',
      KUBERNETES_SERVICE_PORT: String((server.address() as AddressInfo).port),
      [SERVICE_ACCOUNT_DIR_ENV]: accountDir,
    },
    close: () => server.close(),
  };
}
