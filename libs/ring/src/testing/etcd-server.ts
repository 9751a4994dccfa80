/**
 * Test helper: a real single-member etcd on 127.0.0.1 (Debian's etcd-server), with its own
 * temp data dir and free ports: `@logsvc/ring/testing`, for specs, e2e and the ingest
 * benchmark's cluster mode. Built apart from the library (tsconfig.testing.json, referenced by
 * tools/bench only), so it is no part of the ring library's build. Not used by the server.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { freePorts } from './free-ports';

export interface EtcdServer {
  /** `127.0.0.1:port`, Loki's endpoint style. */
  readonly endpoint: string;
  /** The etcd process's pid while it runs (for CPU accounting). */
  readonly pid: number | undefined;
  /** Stops etcd and removes its data dir. */
  stop(): Promise<void>;
  /** SIGKILLs etcd now (a crash); `restart()` brings it back with its data. */
  kill(): void;
  /** Kills etcd if it runs and starts it again on the same ports and data; resolves once it serves. */
  restart(): Promise<void>;
}

export interface StartEtcdOptions {
  /** Serve clients over TLS with this certificate (PEM files). */
  readonly tls?: { readonly certPath: string; readonly keyPath: string };
}

const READY_TIMEOUT_MS = 10_000;

/**
 * Where the data dir goes: tmpfs when the machine has one. etcd fsyncs its WAL on every write,
 * and on a busy disk a fsync can stall a ring heartbeat past a test's short heartbeat timeout.
 */
function dataRoot(): string {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}

/** Starts etcd and resolves once it answers on its client port. */
export async function startEtcd(options: StartEtcdOptions = {}): Promise<EtcdServer> {
  const binary = findEtcd();
  const dataDir = await mkdtemp(path.join(dataRoot(), 'logsvc-etcd-'));
  const [clientPort, peerPort] = await freePorts(2);
  const client = `${options.tls ? 'https' : 'http'}://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  const args = [
    ...['--name', 'test', '--data-dir', dataDir],
    ...(options.tls
      ? ['--cert-file', options.tls.certPath, '--key-file', options.tls.keyPath]
      : []),
    ...['--listen-client-urls', client, '--advertise-client-urls', client],
    ...['--listen-peer-urls', peer, '--initial-advertise-peer-urls', peer],
    ...['--initial-cluster', `test=${peer}`],
    ...['--logger', 'zap', '--log-level', 'error'],
    // A lone member elects itself after one election timeout: keep restarts quick.
    ...['--heartbeat-interval', '10', '--election-timeout', '100'],
  ];

  let run: EtcdRun | null = null;
  // Runs even when a test fails or the worker exits early; must be synchronous.
  const onExit = (): void => {
    run?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('exit', onExit);

  const launch = async (): Promise<void> => {
    run = spawnEtcd(binary, args, dataDir);
    await waitUntilServing(run, client);
  };
  try {
    await launch();
  } catch (err) {
    process.removeListener('exit', onExit);
    onExit();
    throw err;
  }

  return {
    endpoint: `127.0.0.1:${clientPort}`,
    get pid() {
      return run?.process.pid;
    },
    kill: () => run?.kill(),
    restart: async () => {
      if (run) {
        run.kill();
        await run.exited;
      }
      await launch();
    },
    stop: async () => {
      process.removeListener('exit', onExit);
      if (run) {
        run.kill();
        await run.exited;
        run = null;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface Unrefable {
  unref(): void;
}

interface EtcdRun {
  readonly process: ChildProcess;
  readonly exited: Promise<void>;
  /** Last lines etcd wrote to stderr, for error messages. */
  stderr(): string;
  kill(): void;
}

/**
 * Spawns etcd together with a watchdog shell that SIGKILLs it and removes its data dir once its
 * stdin (a pipe from this process) closes: that happens however this process ends, even by
 * SIGKILL, which no exit hook survives.
 */
function spawnEtcd(binary: string, args: readonly string[], dataDir: string): EtcdRun {
  const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const watchdog = spawn('sh', ['-c', `read _; kill -9 ${child.pid}; rm -rf "$0"`, dataDir], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  watchdog.stdin?.on('error', () => undefined);
  // The watchdog alone must not keep this process alive (etcd itself does, until stopped).
  for (const handle of [watchdog, watchdog.stdin]) (handle as Unrefable).unref();
  return {
    process: child,
    exited,
    stderr: () => stderr,
    kill: () => {
      // The watchdog goes first so it can never signal a pid reused after etcd is gone.
      watchdog.kill('SIGKILL');
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

async function waitUntilServing(run: EtcdRun, clientUrl: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let exited = false;
  void run.exited.then(() => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`etcd exited before serving: ${run.stderr()}`);
    if (await isHealthy(clientUrl)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  run.kill();
  throw new Error(
    `etcd did not serve on ${clientUrl} within ${READY_TIMEOUT_MS}ms: ${run.stderr()}`,
  );
}

async function isHealthy(clientUrl: string): Promise<boolean> {
  const url = `${clientUrl}/health`;
  // Only a probe of our own etcd, whose test certificate nothing here trusts.
  const get = url.startsWith('https:')
    ? (done: (res: IncomingMessage) => void) =>
        httpsGet(url, { rejectUnauthorized: false, timeout: 1000 }, done)
    : (done: (res: IncomingMessage) => void) => httpGet(url, { timeout: 1000 }, done);
  return new Promise((resolve) => {
    const req = get((res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve(res.statusCode === 200 && body.includes('"health":"true"')));
      res.on('error', () => resolve(false));
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
  });
}

function findEtcd(): string {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const dir of [...dirs, '/usr/bin']) {
    const candidate = path.join(dir, 'etcd');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  throw new Error('etcd not found on PATH; install it with `apt-get install etcd-server`');
}
