import type * as S3Sdk from '@aws-sdk/client-s3';
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

let sdk: typeof S3Sdk | undefined;

/**
 * The AWS SDK, loaded when the first S3 client is made: a process on the filesystem store never
 * loads it (≈ 2–4 MB of heap that every full garbage collection would otherwise walk).
 */
function s3Sdk(): typeof S3Sdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy
  return (sdk ??= require('@aws-sdk/client-s3') as typeof S3Sdk);
}

/** The fields of Loki's `storage_config.aws` block this client reads. */
export interface S3StorageConfig {
  /** host[:port], or a full URL; empty means AWS's regional endpoint. */
  readonly endpoint?: string;
  readonly region?: string;
  /** Comma-separated; with several, each key lives in one bucket chosen by a hash of the key. */
  readonly bucketnames: string;
  readonly access_key_id?: string;
  readonly secret_access_key?: string;
  readonly session_token?: string;
  readonly s3forcepathstyle?: boolean;
  /** Use http:// for an endpoint given without a scheme. */
  readonly insecure?: boolean;
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/** FNV-1a 32-bit over the key's UTF-8 bytes: picks a bucket the way Loki does. */
function fnv32a(key: string): number {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(key, 'utf8')) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export interface S3ObjectClientOptions {
  /** Keys per ListObjectsV2 page (S3 default and maximum: 1000). */
  readonly listPageSize?: number;
}

export class S3ObjectClient implements ObjectClient {
  private readonly client: S3Sdk.S3Client;
  private readonly buckets: readonly string[];
  private readonly listPageSize: number | undefined;

  constructor(config: S3StorageConfig, options: S3ObjectClientOptions = {}) {
    this.listPageSize = options.listPageSize;
    this.buckets = (config.bucketnames ?? '')
      .split(',')
      .map((b) => b.trim())
      .filter((b) => b.length > 0);
    if (this.buckets.length === 0) {
      throw new StorageError('storage_config.aws.bucketnames: at least one bucket is required');
    }
    const hasKeys = !!config.access_key_id && !!config.secret_access_key;
    if (!!config.access_key_id !== !!config.secret_access_key) {
      throw new StorageError(
        'storage_config.aws: access_key_id and secret_access_key must be set together',
      );
    }
    this.client = new (s3Sdk().S3Client)({
      region: config.region || 'us-east-1',
      endpoint: endpointUrl(config),
      forcePathStyle: config.s3forcepathstyle ?? false,
      credentials: hasKeys
        ? {
            accessKeyId: config.access_key_id as string,
            secretAccessKey: config.secret_access_key as string,
            sessionToken: config.session_token || undefined,
          }
        : undefined,
      // S3-compatible stores (MinIO, Ceph, s3rver) do not all accept the SDK's default
      // CRC trailers; our chunks and index files carry their own checksums.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Buffer): Promise<void> {
    assertSafeObjectKey(key);
    try {
      await this.client.send(
        new (s3Sdk().PutObjectCommand)({ Bucket: this.bucketFor(key), Key: key, Body: body }),
      );
    } catch (err) {
      throw new StorageError(`put ${key}: ${errorMessage(err)}`, { cause: err });
    }
  }

  async get(key: string): Promise<Buffer> {
    return this.fetch(key, undefined);
  }

  async getRange(key: string, offset: number, length: number): Promise<Buffer> {
    assertValidRange(key, offset, length);
    if (length === 0) {
      assertSafeObjectKey(key);
      if (!(await this.exists(key))) throw new ObjectNotFoundError(key);
      return Buffer.alloc(0);
    }
    try {
      return await this.fetch(key, `bytes=${offset}-${offset + length - 1}`);
    } catch (err) {
      // A range starting past the end is "416 InvalidRange" on S3; the contract returns "".
      const status = (err as { cause?: { $metadata?: { httpStatusCode?: number } } }).cause
        ?.$metadata?.httpStatusCode;
      if (status === 416) return Buffer.alloc(0);
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    assertSafeObjectKey(key);
    try {
      await this.client.send(
        new (s3Sdk().HeadObjectCommand)({ Bucket: this.bucketFor(key), Key: key }),
      );
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw new StorageError(`exists ${key}: ${errorMessage(err)}`, { cause: err });
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeObjectKey(key);
    try {
      await this.client.send(
        new (s3Sdk().DeleteObjectCommand)({ Bucket: this.bucketFor(key), Key: key }),
      );
    } catch (err) {
      if (isNotFound(err)) return;
      throw new StorageError(`delete ${key}: ${errorMessage(err)}`, { cause: err });
    }
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    assertSafePrefix(prefix);
    if (options.delimiter !== undefined && options.delimiter !== '/') {
      throw new StorageError(`list ${prefix}: only the "/" delimiter is supported`);
    }
    const objects: ObjectInfo[] = [];
    const prefixes = new Set<string>();
    for (const bucket of this.buckets) {
      let token: string | undefined;
      do {
        let page: S3Sdk.ListObjectsV2CommandOutput;
        try {
          page = await this.client.send(
            new (s3Sdk().ListObjectsV2Command)({
              Bucket: bucket,
              Prefix: prefix,
              Delimiter: options.delimiter,
              ContinuationToken: token,
              MaxKeys: this.listPageSize,
            }),
          );
        } catch (err) {
          throw new StorageError(`list ${prefix}: ${errorMessage(err)}`, { cause: err });
        }
        for (const o of page.Contents ?? []) {
          if (o.Key === undefined) continue;
          objects.push({
            key: o.Key,
            size: o.Size ?? 0,
            modifiedAt: o.LastModified ?? new Date(0),
          });
        }
        for (const p of page.CommonPrefixes ?? []) if (p.Prefix) prefixes.add(p.Prefix);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    }
    objects.sort((a, b) => compareKeys(a.key, b.key));
    return { objects, commonPrefixes: [...prefixes].sort(compareKeys) };
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  private bucketFor(key: string): string {
    return this.buckets.length === 1
      ? this.buckets[0]
      : this.buckets[fnv32a(key) % this.buckets.length];
  }

  private async fetch(key: string, range: string | undefined): Promise<Buffer> {
    assertSafeObjectKey(key);
    try {
      const out = await this.client.send(
        new (s3Sdk().GetObjectCommand)({ Bucket: this.bucketFor(key), Key: key, Range: range }),
      );
      if (!out.Body) return Buffer.alloc(0);
      return Buffer.from(await out.Body.transformToByteArray());
    } catch (err) {
      if (isNotFound(err)) throw new ObjectNotFoundError(key);
      throw new StorageError(`get ${key}: ${errorMessage(err)}`, { cause: err });
    }
  }
}

function endpointUrl(config: S3StorageConfig): string | undefined {
  const endpoint = config.endpoint?.trim();
  if (!endpoint) return undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint)) return endpoint;
  return `${config.insecure ? 'http' : 'https'}://${endpoint}`;
}
