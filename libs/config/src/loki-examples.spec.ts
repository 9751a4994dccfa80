import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigReport } from './load';

// Loki 3.4.6's example configs that Loki's own `-verify-config` accepts (fixtures/loki-3.4).
const DIR = join(__dirname, '../fixtures/loki-3.4');

/** What logsvc makes of each: valid, or refused for a reason Loki users can act on. */
const EXPECTED: Record<string, 'valid' | RegExp> = {
  '1-Local-Configuration-Example.yaml': 'valid',
  '2-S3-Cluster-Example.yaml': 'valid',
  'loki-docker-config.yaml': 'valid',
  'loki-local-config.yaml': 'valid',
  'loki-local-with-memcached.yaml': 'valid',
  '11-COS-HMAC-Example.yaml':
    /storage_config\.cos\.bucketnames: not supported by logsvc: logsvc has no cos object store client/,
  '12-COS-APIKey-Example.yaml': /logsvc has no cos object store client/,
  '13-COS-Trusted-Profile-Example.yaml': /logsvc has no cos object store client/,
  '4-GCS-Example.yaml':
    /storage_config\.gcs\.bucket_name: not supported by logsvc: logsvc has no gcs object store client/,
  '5-BOS-Example.yaml': /logsvc has no bos object store client/,
  '8-alibaba-cloud-storage-Snippet.yaml': /logsvc has no alibabacloud object store client/,
  '7-Schema-Migration-Snippet.yaml':
    /schema_config\.configs\.0\.store: not supported by logsvc: logsvc has no boltdb-shipper index/,
  'getting-started-loki-config.yaml':
    /^config error: memberlist\.join_members: logsvc has no gossip ring store: use etcd.*\(at .*getting-started-loki-config\.yaml:7\)$/,
  'production-docker-loki.yaml': /memberlist\.join_members: logsvc has no gossip ring store/,
};

const verify = (file: string) => {
  try {
    return loadConfigReport([`-config.file=${join(DIR, file)}`]);
  } catch (err) {
    return err as Error;
  }
};

describe("Loki 3.4's example configs", () => {
  it('are all listed here', () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith('.yaml'));
    expect(files.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [file, expected] of Object.entries(EXPECTED)) {
    it(`${file}: ${expected === 'valid' ? 'loads' : 'is refused with the reason'}`, () => {
      const outcome = verify(file);
      if (expected === 'valid') {
        expect(outcome instanceof Error ? outcome.message : 'valid').toBe('valid');
      } else {
        expect(outcome).toBeInstanceOf(Error);
        expect((outcome as Error).message).toMatch(expected);
      }
    });
  }

  it('loki-local-config.yaml loads unchanged, naming the keys that have no effect', () => {
    const outcome = verify('loki-local-config.yaml');
    if (outcome instanceof Error) throw outcome;
    expect(outcome.warnings.map((w) => w.key)).toEqual([
      'limits_config.metric_aggregation_enabled',
      'pattern_ingester.metric_aggregation.loki_address',
      'frontend.encoding',
    ]);
    expect(outcome.config.pattern_ingester.enabled).toBe(true);
    expect(outcome.config.common.path_prefix).toBe('/tmp/loki');
  });

  it("2-S3-Cluster-Example.yaml's s3:// URL gives the bucket, credentials and host", () => {
    const outcome = verify('2-S3-Cluster-Example.yaml');
    if (outcome instanceof Error) throw outcome;
    expect(outcome.config.storage_config.aws).toMatchObject({
      bucketnames: 'bucket_name',
      access_key_id: 'access_key',
      secret_access_key: 'secret_access_key',
      region: 'custom_endpoint',
      s3forcepathstyle: true,
    });
  });

  it('report every problem of production-docker-loki.yaml in one run, each with its line', () => {
    const message = (verify('production-docker-loki.yaml') as Error).message;
    const lines = message.split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const line of lines) expect(line).toMatch(/\(at .*production-docker-loki\.yaml:\d+\)$/);
    expect(message).toContain('table_manager.retention_deletes_enabled: not supported by logsvc');
    expect(message).toContain('schema_config.configs.1.schema: not supported by logsvc');
  });
});
