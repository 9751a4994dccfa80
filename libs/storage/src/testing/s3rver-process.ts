/** Test helper: an s3rver child process on 127.0.0.1. Test-only: not part of the build. */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

export interface S3rverProcess {
  readonly endpoint: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** Starts s3rver with `buckets` already created; resolves once it listens. */
export async function startS3rver(buckets: readonly string[]): Promise<S3rverProcess> {
  const dir = await mkdtemp(path.join(tmpdir(), 'logsvc-s3rver-'));
  const script = path.join(__dirname, 's3rver-child.mjs');
  const child = spawn(process.execPath, ['--openssl-legacy-provider', script, dir, ...buckets], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}: ${err}`)));
  });
  return {
    endpoint: `127.0.0.1:${port}`,
    port,
    stop: async () => {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
