import { describe, expect, it } from 'vitest';
import { AzureObjectClient } from './azure-object-client';
import { startAzurite } from './testing/azurite-process';
import { describeObjectClientContract } from './testing/object-client-contract';

describeObjectClientContract('azure (Azurite)', async () => {
  const azurite = await startAzurite(['logsvc-contract']);
  return {
    client: new AzureObjectClient(
      { connection_string: azurite.connectionString, container_name: 'logsvc-contract' },
      { listPageSize: 7 },
    ),
    listPageSize: 7,
    dispose: azurite.stop,
  };
});

describe('AzureObjectClient configuration', () => {
  it('requires an account key or a connection string', () => {
    expect(() => new AzureObjectClient({ account_name: 'acct', container_name: 'loki' })).toThrow(
      /account_name and account_key \(or connection_string\)/,
    );
  });

  it('turns an unreachable endpoint into a StorageError naming the operation', async () => {
    const sut = new AzureObjectClient({
      connection_string:
        'DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=a2V5;' +
        'BlobEndpoint=http://127.0.0.1:1/devstoreaccount1;',
      container_name: 'loki',
      max_retries: 0,
    });
    await expect(sut.put('t/x', Buffer.from('x'))).rejects.toThrow(/^put t\/x: /);
  });
});
