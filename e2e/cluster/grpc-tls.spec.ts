import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMPTY_LABELS, type PushRequest, parseLabels } from '@logsvc/api';
import { kindOf } from '@logsvc/errors';
import { type ClientTlsFiles, GrpcIngesterClient } from '@logsvc/rpc';
import { makeCa, signCert, writeExtensions } from '@logsvc/rpc/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtcdCluster, type ConfigTree, type Member } from '../support/cluster';
import { nowNs, pushOk, queryRange } from '../support/loki-api';
import { eventually } from '../support/server';

// Issue 43: TLS and mutual TLS between components, with Loki's keys. An ingester's gRPC Push
// skips the distributor's validation and limits, so under mTLS only a client holding a
// certificate of the cluster's CA may call it.

interface Pki {
  dir: string;
  ca: string;
  cert: string;
  key: string;
  /** A certificate of another CA, which the cluster must not trust. */
  strangerCert: string;
  strangerKey: string;
}

/** A CA, a certificate it signs for 127.0.0.1 (server and client use), and a stranger's. */
function makePki(): Pki {
  const dir = mkdtempSync(join(tmpdir(), 'logsvc-pki-'));
  for (const name of ['ca', 'stranger-ca']) makeCa(dir, name);
  writeExtensions(dir, [
    'subjectAltName=IP:127.0.0.1,DNS:localhost',
    'extendedKeyUsage=serverAuth,clientAuth',
    'keyUsage=digitalSignature,keyEncipherment',
  ]);
  signCert(dir, 'node', 'ca');
  signCert(dir, 'stranger', 'stranger-ca');
  return {
    dir,
    ca: join(dir, 'ca.crt'),
    cert: join(dir, 'node.crt'),
    key: join(dir, 'node.key'),
    strangerCert: join(dir, 'stranger.crt'),
    strangerKey: join(dir, 'stranger.key'),
  };
}

function tlsConfig(pki: Pki): ConfigTree {
  const client = {
    tls_enabled: true,
    tls_cert_path: pki.cert,
    tls_key_path: pki.key,
    tls_ca_path: pki.ca,
    // The certificate names 127.0.0.1 and localhost; the clients dial 127.0.0.1.
    tls_server_name: 'localhost',
  };
  return {
    server: {
      grpc_tls_config: {
        cert_file: pki.cert,
        key_file: pki.key,
        client_auth_type: 'RequireAndVerifyClientCert',
        client_ca_file: pki.ca,
      },
    },
    // Distributors and queriers to ingesters, frontends to schedulers, queriers to schedulers.
    ingester_client: { grpc_client_config: client },
    frontend: { grpc_client_config: client },
    frontend_worker: { grpc_client_config: client },
    query_scheduler: { use_scheduler_ring: true },
  };
}

function pushRequest(line: string): PushRequest {
  return {
    streams: [
      {
        labels: parseLabels('{app="direct"}'),
        entries: [
          { timestampNs: nowNs(), line: Buffer.from(line), structuredMetadata: EMPTY_LABELS },
        ],
      },
    ],
  };
}

/** What a refused call's error says, in short. */
function refusal(err: Error | undefined): string {
  if (err === undefined) return 'taken';
  const connected = !/No connection established|Failed to connect/.test(err.message);
  return `${kindOf(err)}: ${connected ? err.message : 'not connected'}`;
}

/** The error of a direct Push to the ingester, or undefined when it was taken. */
async function directPush(
  address: string,
  tls: ClientTlsFiles | undefined,
): Promise<Error | undefined> {
  const client = new GrpcIngesterClient(address, { timeoutMs: 10_000, ...(tls ? { tls } : {}) });
  try {
    await client.push('victim', pushRequest('sneaked past the distributor'));
    return undefined;
  } catch (err) {
    return err as Error;
  } finally {
    client.close();
  }
}

describe('a cluster with mutual TLS between its components', () => {
  let pki: Pki;
  let cluster: EtcdCluster;
  let ingester: Member;
  let distributor: Member;
  let frontend: Member;
  let querier: Member;
  const address = () => `127.0.0.1:${ingester.grpcPort}`;

  beforeAll(async () => {
    pki = makePki();
    cluster = await EtcdCluster.start({ replicationFactor: 1, config: tlsConfig(pki) });
    ingester = await cluster.add('tls-ingester', 'ingester');
    distributor = await cluster.add('tls-distributor', 'distributor');
    await cluster.add('tls-scheduler', 'query-scheduler');
    frontend = await cluster.add('tls-frontend', 'query-frontend');
    querier = await cluster.add('tls-querier', 'querier');
  }, 180_000);

  afterAll(async () => {
    await cluster?.dispose();
    if (pki) rmSync(pki.dir, { recursive: true, force: true });
  });

  it('pushes through the distributor and queries through the querier and the frontend over TLS', async () => {
    const ts = nowNs();
    await pushOk(distributor.process.url, [
      { stream: { app: 'tls' }, values: [[String(ts), 'over mutual TLS']] },
    ]);
    // The querier asks the ingester; the frontend's sub-queries go through the scheduler to the
    // querier's workers.
    for (const reader of [querier, frontend]) {
      const streams = await eventually(async () => {
        const got = await queryRange(reader.process.url, {
          query: '{app="tls"}',
          start: ts - 60_000_000_000n,
          end: ts + 60_000_000_000n,
          limit: 10,
        });
        return got.length > 0 ? got : undefined;
      }, `the pushed line from ${reader.name}`);
      expect(streams[0].entries.map((e) => e.line)).toEqual(['over mutual TLS']);
    }
  });

  it("refuses a Push without the cluster's client certificate, and plaintext", async () => {
    const plaintext = await directPush(address(), undefined);
    expect(refusal(plaintext)).toBe('unavailable: not connected');
    const noCert = await directPush(address(), {
      certPath: '',
      keyPath: '',
      caPath: pki.ca,
      serverName: '',
      insecureSkipVerify: false,
    });
    expect(refusal(noCert)).toBe('unavailable: not connected');
    const stranger = await directPush(address(), {
      certPath: pki.strangerCert,
      keyPath: pki.strangerKey,
      caPath: pki.ca,
      serverName: '',
      insecureSkipVerify: false,
    });
    expect(refusal(stranger)).toBe('unavailable: not connected');
    // A component's certificate is let in (the check above is not a broken server).
    const member = await directPush(address(), {
      certPath: pki.cert,
      keyPath: pki.key,
      caPath: pki.ca,
      serverName: '',
      insecureSkipVerify: false,
    });
    expect(member).toBeUndefined();
  });
});
