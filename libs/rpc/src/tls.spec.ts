import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kindOf } from '@logsvc/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrpcRulerClient } from './ruler';
import { startGrpcServer, type RunningGrpcServer } from './server/grpc-server';
import { rulerGrpcServices } from './server/grpc-services';
import { makeCa, signCert, writeExtensions } from './testing';
import { type ClientTlsFiles, clientCredentials, serverCredentials } from './tls';

/** A CA in `dir` and a certificate it signs for `name` only (no IP address). */
function makeCerts(dir: string, name: string): void {
  makeCa(dir, 'ca');
  writeExtensions(dir, [`subjectAltName=DNS:${name}`, 'extendedKeyUsage=serverAuth,clientAuth']);
  signCert(dir, 'node', 'ca');
}

describe('gRPC TLS', () => {
  let dir: string;
  let server: RunningGrpcServer;
  const file = (name: string) => join(dir, name);
  const client = (overrides: Partial<ClientTlsFiles>): ClientTlsFiles => ({
    certPath: file('node.crt'),
    keyPath: file('node.key'),
    caPath: file('ca.crt'),
    serverName: 'logsvc.test',
    insecureSkipVerify: false,
    ...overrides,
  });
  /** `ok`, or the kind of error a Rules call to the server got. */
  async function call(tls: ClientTlsFiles | undefined): Promise<string> {
    const sut = new GrpcRulerClient(`127.0.0.1:${server.port}`, {
      timeoutMs: 10_000,
      ...(tls ? { tls } : {}),
    });
    try {
      await sut.rules('t', { files: [], groups: [], names: [] });
      return 'ok';
    } catch (err) {
      return kindOf(err);
    } finally {
      sut.close();
    }
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'logsvc-rpc-tls-'));
    makeCerts(dir, 'logsvc.test');
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      maxRecvMsgSize: 4 << 20,
      maxSendMsgSize: 4 << 20,
      services: rulerGrpcServices({ rules: () => Promise.resolve([]) }),
      tls: {
        certFile: file('node.crt'),
        keyFile: file('node.key'),
        requireClientCert: true,
        clientCaFile: file('ca.crt'),
      },
    });
  });
  afterAll(async () => {
    await server.stop(0);
    rmSync(dir, { recursive: true, force: true });
  });

  it('lets in a client with a certificate of the CA, naming the server by tls_server_name', async () => {
    expect(await call(client({}))).toBe('ok');
    // The certificate does not name 127.0.0.1: without the override the name check fails.
    expect(await call(client({ serverName: '' }))).toBe('unavailable');
    // Unless the check is skipped, with no CA either.
    expect(await call(client({ serverName: '', caPath: '', insecureSkipVerify: true }))).toBe('ok');
  });

  it('refuses a client without a certificate, and plaintext', async () => {
    expect(await call(client({ certPath: '', keyPath: '' }))).toBe('unavailable');
    expect(await call(undefined)).toBe('unavailable');
  });

  it('names a file it cannot read', () => {
    expect(() => clientCredentials(client({ caPath: file('missing.crt') }))).toThrow(
      `cannot read the TLS CA file ${file('missing.crt')}`,
    );
    expect(() =>
      serverCredentials({
        certFile: file('node.crt'),
        keyFile: file('missing.key'),
        requireClientCert: false,
        clientCaFile: '',
      }),
    ).toThrow(`cannot read the TLS key file ${file('missing.key')}`);
  });
});
