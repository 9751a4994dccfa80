import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AzuriteProcess, startAzurite } from '@logsvc/storage/testing';
import { type TestServer, pushAndFlush, readFromStore, startTestServer } from './harness';

const CONTAINER = 'logsvc-app';

describe('the server on the Azure object store (Azurite on 127.0.0.1)', () => {
  let azurite: AzuriteProcess;
  let sut: TestServer;

  beforeAll(async () => {
    azurite = await startAzurite([CONTAINER]);
    sut = await startTestServer({
      config: {
        auth_enabled: false,
        // Loki's names: `common.storage.azure` fills `storage_config.azure`.
        schema_config: { configs: [{ from: '2020-01-01', object_store: 'azure' }] },
        common: {
          storage: {
            azure: { connection_string: azurite.connectionString, container_name: CONTAINER },
          },
        },
      },
    });
  });
  afterAll(async () => {
    await sut?.close();
    await azurite?.stop();
  });

  it('flushes pushed entries to the container, where a fresh reader finds them', async () => {
    const lines = ['first to azure', 'second to azure'];
    expect(await pushAndFlush(sut, '{app="azure-app"}', lines)).toEqual({ push: 204, flush: 204 });

    expect(sut.config.storage_config.azure.container_name).toBe(CONTAINER);
    const stored = await readFromStore(sut.config, 'fake', '{app="azure-app"}');
    expect(stored.map((e) => e.line)).toEqual(lines);
  });
});
