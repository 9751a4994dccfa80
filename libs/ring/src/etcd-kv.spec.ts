import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Etcd3 } from 'etcd3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EtcdKv, type EtcdKvOptions } from './etcd-kv';
import { type EtcdServer, startEtcd } from './testing/etcd-server';
import { increment, text, watchValues } from './testing/kv-values';

let etcd: EtcdServer;
const opened: EtcdKv[] = [];
let n = 0;
const freshKey = (): string => `key-${++n}`;

function open(options: Partial<EtcdKvOptions> = {}): EtcdKv {
  const kv = new EtcdKv({
    endpoints: [etcd.endpoint],
    dialTimeoutMs: 2000,
    maxRetries: 10,
    ...options,
  });
  opened.push(kv);
  return kv;
}

/**
 * Writes `fullKey` through etcd's JSON gateway and returns only once etcd has it: synchronous,
 * so it can land between a CAS's read and its commit.
 */
function putSync(fullKey: string, value: string): void {
  const body = JSON.stringify({
    key: Buffer.from(fullKey).toString('base64'),
    value: Buffer.from(value).toString('base64'),
  });
  const script = `fetch(process.argv[1], { method: 'POST', body: process.argv[2] }).then((r) => { if (!r.ok) process.exit(1); })`;
  execFileSync(process.execPath, ['-e', script, `http://${etcd.endpoint}/v3/kv/put`, body]);
}

beforeAll(async () => {
  etcd = await startEtcd();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((kv) => kv.close()));
});
afterAll(() => etcd?.stop());

describe('EtcdKv cas', () => {
  it('loses no increment when two clients each run 50 at once on one key', async () => {
    // Each round of the race one client wins, about at random, so one CAS can lose many rounds
    // in a row against 50 queued writes of the other: more attempts than Loki's default 10,
    // which suits realistic contention (heartbeats seconds apart), keep this deterministic.
    const [a, b] = [open({ maxRetries: 30 }), open({ maxRetries: 30 })];
    const key = freshKey();
    await Promise.all(
      Array.from({ length: 50 }, () => [a.cas(key, increment), b.cas(key, increment)]).flat(),
    );
    expect(text(await a.get(key))).toBe('100');
  });

  it('re-runs the update on a value written between its read and its commit', async () => {
    const kv = open({ maxRetries: 3 });
    const key = freshKey();
    await kv.cas(key, () => Buffer.from('a'));
    const seen: (string | null)[] = [];
    await kv.cas(key, (current) => {
      seen.push(text(current));
      if (seen.length < 3) putSync(`collectors/${key}`, `${text(current)}+other`);
      return Buffer.from(`${text(current)}+mine`);
    });
    expect(seen).toEqual(['a', 'a+other', 'a+other+other']);
    expect(text(await kv.get(key))).toBe('a+other+other+mine');
  });

  it('gives up after max_retries attempts on a key that keeps changing', async () => {
    const kv = open({ maxRetries: 2 });
    const key = freshKey();
    let calls = 0;
    const cas = kv.cas(key, () => {
      putSync(`collectors/${key}`, `other-${++calls}`);
      return Buffer.from('mine');
    });
    await expect(cas).rejects.toThrow(`etcd CAS of collectors/${key} gave up after 2 attempts`);
    expect(calls).toBe(2);
    expect(text(await kv.get(key))).toBe('other-2');
  });
});

describe('EtcdKv keys', () => {
  it('prefixes every key, "collectors/" by default, so prefixes do not see each other', async () => {
    const raw = new Etcd3({ hosts: `http://${etcd.endpoint}` });
    try {
      const [loki, other] = [open(), open({ prefix: 'other/' })];
      const key = freshKey();
      await loki.cas(key, () => Buffer.from('loki'));
      expect(await other.get(key)).toBeNull();
      await other.cas(key, () => Buffer.from('other'));
      expect(text(await loki.get(key))).toBe('loki');
      expect(await raw.get(`collectors/${key}`).string()).toBe('loki');
      expect(await raw.get(`other/${key}`).string()).toBe('other');
    } finally {
      raw.close();
    }
  });

  it('accepts endpoints with an http:// scheme as well as host:port', async () => {
    const kv = open({ endpoints: [`http://${etcd.endpoint}/`] });
    const key = freshKey();
    await kv.cas(key, () => Buffer.from('v'));
    expect(text(await open().get(key))).toBe('v');
  });
});

describe('EtcdKv watch', () => {
  it('delivers the current value, then changes made by another client', async () => {
    const [watching, writing] = [open(), open()];
    const key = freshKey();
    await writing.cas(key, () => Buffer.from('v1'));
    const { values, stop } = watchValues(watching, key);
    await vi.waitFor(() => expect(values).toEqual(['v1']));
    await writing.cas(key, () => Buffer.from('v2'));
    await writing.cas(key, () => Buffer.from('v3'));
    await vi.waitFor(() => expect(values).toEqual(['v1', 'v2', 'v3']));
    stop();
  });

  it('keeps going through an etcd restart and delivers what was written meanwhile', async () => {
    const [watching, writing] = [open(), open()];
    const key = freshKey();
    await writing.cas(key, () => Buffer.from('before'));
    const { values, stop } = watchValues(watching, key);
    await vi.waitFor(() => expect(values).toEqual(['before']));

    etcd.kill();
    await etcd.restart();
    await writing.cas(key, () => Buffer.from('after'));
    await vi.waitFor(() => expect(values.at(-1)).toBe('after'), { timeout: 5000 });
    // The client that watched writes again too.
    await watching.cas(key, () => Buffer.from('again'));
    await vi.waitFor(() => expect(values.at(-1)).toBe('again'));
    expect(values).toEqual(['before', 'after', 'again']);
    stop();
  });

  it('started while etcd is down, delivers the value once etcd is back', async () => {
    const key = freshKey();
    await open().cas(key, () => Buffer.from('stored'));
    const errors: Error[] = [];
    const values: (string | null)[] = [];
    etcd.kill();
    const stop = open({ onWatchError: (err) => errors.push(err) }).watch(key, (value) =>
      values.push(text(value)),
    );
    await vi.waitFor(() => expect(errors.length).toBeGreaterThan(0));
    expect(values).toEqual([]);
    await etcd.restart();
    await vi.waitFor(() => expect(values).toEqual(['stored']), { timeout: 5000 });
    expect(errors[0]?.message).toContain(`endpoints http://${etcd.endpoint}`);
    stop();
  });

  it('delivers nothing after close', async () => {
    const [watching, writing] = [open(), open()];
    const key = freshKey();
    const values: (string | null)[] = [];
    watching.watch(key, (value) => values.push(text(value)));
    await vi.waitFor(() => expect(values).toEqual([null]));
    await watching.close();
    await writing.cas(key, () => Buffer.from('unseen'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(values).toEqual([null]);
  });
});

describe('EtcdKv when etcd is unreachable', () => {
  let silent: Server;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    // Accepts connections and never answers: a hung etcd or a black-holed network.
    silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('rejects at once, naming the endpoint, when nothing listens', async () => {
    const port = await closedPort();
    const kv = open({ endpoints: [`127.0.0.1:${port}`] });
    const started = Date.now();
    await expect(kv.get('ring')).rejects.toThrow(`endpoints http://127.0.0.1:${port}`);
    await expect(kv.cas('ring', () => Buffer.from('x'))).rejects.toThrow(`127.0.0.1:${port}`);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('rejects within the dial timeout, naming the endpoint, when etcd does not answer', async () => {
    const address = silent.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const kv = open({ endpoints: [`127.0.0.1:${address.port}`], dialTimeoutMs: 300 });
    const started = Date.now();
    await expect(kv.get('ring')).rejects.toThrow(`endpoints http://127.0.0.1:${address.port}`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(1500);
  });
});

describe('EtcdKv with etcd authentication on', () => {
  let secured: EtcdServer;
  beforeAll(async () => {
    secured = await startEtcd();
    const admin = new Etcd3({ hosts: `http://${secured.endpoint}` });
    await admin.role('root').create();
    await (await admin.user('root').create('s3cret')).addRole('root');
    await admin.auth.authEnable({});
    admin.close();
  });
  afterAll(() => secured?.stop());

  it('works with the right username and password, and says why it fails without', async () => {
    const endpoints = [secured.endpoint];
    const kv = open({ endpoints, username: 'root', password: 's3cret' });
    await kv.cas('ring', () => Buffer.from('v'));
    expect(text(await kv.get('ring'))).toBe('v');
    await expect(open({ endpoints }).get('ring')).rejects.toThrow(/user name is empty/);
    await expect(
      open({ endpoints, username: 'root', password: 'wrong' }).get('ring'),
    ).rejects.toThrow(/authentication failed/);
  });
});

describe('EtcdKv over TLS', () => {
  let secured: EtcdServer;
  let certs: TestCerts;
  beforeAll(async () => {
    certs = await makeTestCerts('etcd.test');
    secured = await startEtcd({ tls: { certPath: certs.certPath, keyPath: certs.keyPath } });
  });
  afterAll(async () => {
    await secured?.stop();
    await rm(certs?.dir ?? '', { recursive: true, force: true });
  });

  it('talks to etcd over https with its CA and server name', async () => {
    const tls = { enabled: true, caPath: certs.caPath, serverName: 'etcd.test' };
    const kv = open({ endpoints: [secured.endpoint], tls });
    await kv.cas('ring', () => Buffer.from('v'));
    expect(text(await kv.get('ring'))).toBe('v');
  });

  it('rejects a certificate that is not for the endpoint, naming the endpoint', async () => {
    const tls = { enabled: true, caPath: certs.caPath };
    const kv = open({ endpoints: [secured.endpoint], tls, dialTimeoutMs: 1000 });
    const error = `endpoints https://${secured.endpoint}): 14 UNAVAILABLE`;
    await expect(kv.get('ring')).rejects.toThrow(error);
    await expect(kv.get('ring')).rejects.toThrow("does not match certificate's altnames");
  });
});

describe('EtcdKv configuration', () => {
  it('refuses empty endpoints', () => {
    expect(() => open({ endpoints: [] })).toThrow('etcd endpoints are empty');
  });

  it('refuses tls_insecure_skip_verify and names unreadable TLS files', () => {
    expect(() => open({ tls: { enabled: true, insecureSkipVerify: true } })).toThrow(
      'tls_insecure_skip_verify is not supported',
    );
    expect(() => open({ tls: { enabled: true, caPath: '/nonexistent/ca.pem' } })).toThrow(
      'etcd tls_ca_path /nonexistent/ca.pem cannot be read',
    );
  });
});

interface TestCerts {
  readonly dir: string;
  readonly caPath: string;
  readonly certPath: string;
  readonly keyPath: string;
}

/** A throwaway CA and a server certificate for `dnsName` signed by it (openssl, EC keys: fast). */
async function makeTestCerts(dnsName: string): Promise<TestCerts> {
  const dir = await mkdtemp(path.join(tmpdir(), 'logsvc-etcd-tls-'));
  const file = (name: string): string => path.join(dir, name);
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { stdio: 'ignore' });
  };
  try {
    const ca = ['-subj', '/CN=test-ca', '-days', '1'];
    openssl('req', '-x509', ...newKey, ...ca, '-keyout', file('ca.key'), '-out', file('ca.pem'));
    const server = ['-subj', `/CN=${dnsName}`, '-keyout', file('server.key')];
    openssl('req', ...newKey, ...server, '-out', file('server.csr'));
    await writeFile(file('san.ext'), `subjectAltName=DNS:${dnsName}\n`);
    openssl(
      ...['x509', '-req', '-in', file('server.csr'), '-days', '1', '-out', file('server.pem')],
      ...['-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial'],
      ...['-extfile', file('san.ext')],
    );
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return { dir, caPath: file('ca.pem'), certPath: file('server.pem'), keyPath: file('server.key') };
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
