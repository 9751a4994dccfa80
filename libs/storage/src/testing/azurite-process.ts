/** Test helper: Azurite's blob service as a child process on 127.0.0.1. Test-only. */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { BlobServiceClient } from '@azure/storage-blob';

/** Azurite's well-known development account. */
export const AZURITE_ACCOUNT = 'devstoreaccount1';
export const AZURITE_KEY =
  'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

export interface AzuriteProcess {
  readonly port: number;
  /** A connection string for the development account on this Azurite. */
  readonly connectionString: string;
  stop(): Promise<void>;
}

/** Starts Azurite's blob service on a free port with `containers` created; resolves once ready. */
export async function startAzurite(containers: readonly string[]): Promise<AzuriteProcess> {
  const dir = await mkdtemp(path.join(tmpdir(), 'logsvc-azurite-'));
  const bin = require.resolve('azurite/dist/src/blob/main.js');
  const child = spawn(
    process.execPath,
    [
      bin,
      '--blobHost',
      '127.0.0.1',
      '--blobPort',
      '0',
      '--location',
      dir,
      '--skipApiVersionCheck',
      '--loose',
      '--silent',
      '--disableTelemetry',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listens on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => reject(new Error(`azurite exited with ${code}: ${err}${out}`)));
  });
  const connectionString =
    `DefaultEndpointsProtocol=http;AccountName=${AZURITE_ACCOUNT};AccountKey=${AZURITE_KEY};` +
    `BlobEndpoint=http://127.0.0.1:${port}/${AZURITE_ACCOUNT};`;
  const service = BlobServiceClient.fromConnectionString(connectionString);
  for (const name of containers) await service.getContainerClient(name).createIfNotExists();
  return {
    port,
    connectionString,
    stop: async () => {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
