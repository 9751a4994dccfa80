/** Test helper: an s3rver child process on 127.0.0.1. Test-only: not part of the build. */
import * as path from 'node:path';
import { startChildStore } from './child-store';

export interface S3rverProcess {
  readonly endpoint: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** Starts s3rver with `buckets` already created; resolves once it listens. */
export async function startS3rver(buckets: readonly string[]): Promise<S3rverProcess> {
  const script = path.join(__dirname, 's3rver-child.mjs');
  const store = await startChildStore({
    name: 's3rver',
    args: (dir) => ['--openssl-legacy-provider', script, dir, ...buckets],
    // The child prints {"port":N} on its first line.
    portFrom: (out) =>
      out.includes('\n') ? (JSON.parse(out.split('\n')[0]) as { port: number }).port : undefined,
    // It exits when its stdin closes.
    quit: (child) => child.stdin.end(),
  });
  return { endpoint: `127.0.0.1:${store.port}`, port: store.port, stop: store.stop };
}
