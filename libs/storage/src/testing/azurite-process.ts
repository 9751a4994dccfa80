/** Test helper: Azurite's blob service as a child process on 127.0.0.1. Test-only. */
import { BlobServiceClient } from '@azure/storage-blob';
import { startChildStore } from './child-store';

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
  const bin = require.resolve('azurite/dist/src/blob/main.js');
  const { port, stop } = await startChildStore({
    name: 'azurite',
    args: (dir) => [
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
    portFrom: (out) => {
      const m = /listens on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      return m ? Number(m[1]) : undefined;
    },
    quit: (child) => child.kill('SIGTERM'),
  });
  const connectionString =
    `DefaultEndpointsProtocol=http;AccountName=${AZURITE_ACCOUNT};AccountKey=${AZURITE_KEY};` +
    `BlobEndpoint=http://127.0.0.1:${port}/${AZURITE_ACCOUNT};`;
  const service = BlobServiceClient.fromConnectionString(connectionString);
  for (const name of containers) await service.getContainerClient(name).createIfNotExists();
  return {
    port,
    connectionString,
    stop,
  };
}
