import type * as AzureSdk from '@azure/storage-blob';
import { ObjectNotFoundError, StorageError, errorMessage } from './errors';
import {
  assertValidRange,
  compareKeys,
  type ListOptions,
  type ListResult,
  type ObjectClient,
  type ObjectInfo,
} from './object-client';
import { assertSafeObjectKey, assertSafePrefix } from './object-key';

let sdk: typeof AzureSdk | undefined;

/** Microsoft's SDK, loaded when the first Azure client is made (as the S3 client does). */
function azureSdk(): typeof AzureSdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy
  return (sdk ??= require('@azure/storage-blob') as typeof AzureSdk);
}

/** The fields of Loki's `storage_config.azure` block this client reads. */
export interface AzureStorageConfig {
  /** AzureGlobal, AzureChinaCloud, AzureGermanCloud or AzureUSGovernment. */
  readonly environment?: string;
  readonly account_name?: string;
  readonly account_key?: string;
  /** Wins over account_name, account_key and endpoint_suffix. */
  readonly connection_string?: string;
  readonly container_name: string;
  /** Empty: the environment's (blob.core.windows.net for AzureGlobal). */
  readonly endpoint_suffix?: string;
  /** Milliseconds per try; 0: the SDK's. */
  readonly request_timeout?: number;
  readonly max_retries?: number;
  /** Milliseconds. */
  readonly min_retry_delay?: number;
  readonly max_retry_delay?: number;
}

/** Blob endpoints of Azure's clouds, as Loki's client names them. */
const ENDPOINT_SUFFIXES: Readonly<Record<string, string>> = {
  AzureGlobal: 'blob.core.windows.net',
  AzureChinaCloud: 'blob.core.chinacloudapi.cn',
  AzureGermanCloud: 'blob.core.cloudapi.de',
  AzureUSGovernment: 'blob.core.usgovcloudapi.net',
};

export interface AzureObjectClientOptions {
  /** Blobs per listing page (Azure default and maximum: 5000). */
  readonly listPageSize?: number;
}

function statusOf(err: unknown): number | undefined {
  return (err as { statusCode?: number } | undefined)?.statusCode;
}

/** Objects in one Azure Blob Storage container (block blobs named by the object keys). */
export class AzureObjectClient implements ObjectClient {
  private readonly container: AzureSdk.ContainerClient;
  private readonly listPageSize: number | undefined;

  constructor(config: AzureStorageConfig, options: AzureObjectClientOptions = {}) {
    this.listPageSize = options.listPageSize;
    if (config.container_name === '') {
      throw new StorageError('storage_config.azure.container_name: a container is required');
    }
    const { BlobServiceClient, StorageSharedKeyCredential } = azureSdk();
    const pipeline: AzureSdk.StoragePipelineOptions = {
      retryOptions: {
        maxTries: (config.max_retries ?? 5) + 1,
        retryDelayInMs: config.min_retry_delay || undefined,
        maxRetryDelayInMs: config.max_retry_delay || undefined,
        tryTimeoutInMs: config.request_timeout || undefined,
      },
    };
    let service: AzureSdk.BlobServiceClient;
    if (config.connection_string) {
      service = BlobServiceClient.fromConnectionString(config.connection_string, pipeline);
    } else {
      if (!config.account_name || !config.account_key) {
        throw new StorageError(
          'storage_config.azure: account_name and account_key (or connection_string) are required',
        );
      }
      const suffix =
        config.endpoint_suffix ||
        ENDPOINT_SUFFIXES[config.environment ?? 'AzureGlobal'] ||
        ENDPOINT_SUFFIXES.AzureGlobal;
      const credential = new StorageSharedKeyCredential(config.account_name, config.account_key);
      service = new BlobServiceClient(
        `https://${config.account_name}.${suffix}`,
        credential,
        pipeline,
      );
    }
    this.container = service.getContainerClient(config.container_name);
  }

  async put(key: string, body: Buffer): Promise<void> {
    assertSafeObjectKey(key);
    try {
      await this.container.getBlockBlobClient(key).uploadData(body);
    } catch (err) {
      throw new StorageError(`put ${key}: ${errorMessage(err)}`, { cause: err });
    }
  }

  async get(key: string): Promise<Buffer> {
    assertSafeObjectKey(key);
    try {
      return await this.container.getBlobClient(key).downloadToBuffer();
    } catch (err) {
      if (statusOf(err) === 404) throw new ObjectNotFoundError(key);
      throw new StorageError(`get ${key}: ${errorMessage(err)}`, { cause: err });
    }
  }

  async getRange(key: string, offset: number, length: number): Promise<Buffer> {
    assertValidRange(key, offset, length);
    assertSafeObjectKey(key);
    if (length === 0) {
      if (!(await this.exists(key))) throw new ObjectNotFoundError(key);
      return Buffer.alloc(0);
    }
    const blob = this.container.getBlobClient(key);
    try {
      // download() rather than downloadToBuffer(): the range may run past the end.
      const response = await blob.download(offset, length);
      const chunks: Buffer[] = [];
      for await (const chunk of response.readableStreamBody ?? []) {
        chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
      }
      return Buffer.concat(chunks);
    } catch (err) {
      const status = statusOf(err);
      if (status === 404) throw new ObjectNotFoundError(key);
      // A range starting past the end is "416 InvalidRange"; the contract returns "".
      if (status === 416) return Buffer.alloc(0);
      throw new StorageError(`getRange ${key}: ${errorMessage(err)}`, { cause: err });
    }
  }

  async exists(key: string): Promise<boolean> {
    assertSafeObjectKey(key);
    try {
      return await this.container.getBlobClient(key).exists();
    } catch (err) {
      throw new StorageError(`exists ${key}: ${errorMessage(err)}`, { cause: err });
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeObjectKey(key);
    try {
      await this.container.getBlobClient(key).deleteIfExists();
    } catch (err) {
      throw new StorageError(`delete ${key}: ${errorMessage(err)}`, { cause: err });
    }
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    assertSafePrefix(prefix);
    if (options.delimiter !== undefined && options.delimiter !== '/') {
      throw new StorageError(`list ${prefix}: only the "/" delimiter is supported`);
    }
    const objects: ObjectInfo[] = [];
    const prefixes: string[] = [];
    const page = { maxPageSize: this.listPageSize };
    const toInfo = (blob: AzureSdk.BlobItem): ObjectInfo => ({
      key: blob.name,
      size: blob.properties.contentLength ?? 0,
      modifiedAt: blob.properties.lastModified ?? new Date(0),
    });
    try {
      if (options.delimiter === undefined) {
        for await (const response of this.container.listBlobsFlat({ prefix }).byPage(page)) {
          for (const blob of response.segment.blobItems) objects.push(toInfo(blob));
        }
      } else {
        const pages = this.container.listBlobsByHierarchy('/', { prefix }).byPage(page);
        for await (const response of pages) {
          for (const blob of response.segment.blobItems) objects.push(toInfo(blob));
          for (const p of response.segment.blobPrefixes ?? []) prefixes.push(p.name);
        }
      }
    } catch (err) {
      throw new StorageError(`list ${prefix}: ${errorMessage(err)}`, { cause: err });
    }
    objects.sort((a, b) => compareKeys(a.key, b.key));
    return { objects, commonPrefixes: [...new Set(prefixes)].sort(compareKeys) };
  }
}
