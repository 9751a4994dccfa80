import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { diffConfig } from './diff';
import { ConfigError } from './errors';
import { defaultConfig, parseConfig } from './parse';
import { renderConfigYaml } from './render';

describe('defaultConfig', () => {
  const sut = defaultConfig();

  it('has Loki defaults for the main keys', () => {
    expect(sut.target).toBe('all');
    expect(sut.auth_enabled).toBe(true);
    expect(sut.server.http_listen_port).toBe(3100);
    expect(sut.server.grpc_listen_port).toBe(9095);
    expect(sut.server.log_level).toBe('info');
    // Unset; the single binary's ingester ring then replicates to 1 (see ring-config.spec.ts).
    expect(sut.common.replication_factor).toBe(0);
    expect(sut.ingester.lifecycler.ring.replication_factor).toBe(1);
    expect(sut.common.ring.kvstore.store).toBe('inmemory');
    expect(sut.querier.query_ingesters_within).toBe(3 * 3_600_000);
    expect(sut.querier.multi_tenant_queries_enabled).toBe(false);
    expect(sut.query_scheduler.max_queue_hierarchy_levels).toBe(3);
    expect(sut.compactor.delete_request_cancel_period).toBe(24 * 3_600_000);
    expect(sut.frontend.support_parquet_encoding).toBe(false);
    expect(sut.pattern_ingester.enabled).toBe(false);
    expect(sut.runtime_config.period).toBe(10_000);
    expect(sut.distributor.max_recv_msg_size).toBe(100 * 1024 * 1024);
  });

  it('has Loki 3.4 default limits', () => {
    const l = sut.limits_config;
    expect(l.ingestion_rate_mb).toBe(4);
    expect(l.ingestion_burst_size_mb).toBe(6);
    expect(l.max_line_size).toBe(262_144);
    expect(l.max_label_names_per_series).toBe(15);
    expect(l.reject_old_samples_max_age).toBe(168 * 3_600_000);
    expect(l.per_stream_rate_limit).toBe(3 * 1024 * 1024);
    expect(l.per_stream_rate_limit_burst).toBe(15 * 1024 * 1024);
    expect(l.max_query_length).toBe(721 * 3_600_000);
    expect(l.max_querier_bytes_read).toBe(150 * 1024 ** 3);
    expect(l.max_structured_metadata_size).toBe(64 * 1024);
    expect(l.block_ingestion_status_code).toBe(260);
    expect(l.deletion_mode).toBe('filter-and-delete');
    expect(l.discover_service_name).toContain('k8s_job_name');
    expect(l.log_level_fields).toEqual([
      'level',
      'LEVEL',
      'Level',
      'Severity',
      'severity',
      'SEVERITY',
      'lvl',
      'LVL',
      'Lvl',
    ]);
  });

  it('puts derived directories under common.path_prefix', () => {
    const c = parseConfig({ common: { path_prefix: '/var/lib/logsvc' } });
    expect(c.ingester.wal.dir).toBe('/var/lib/logsvc/wal');
    expect(c.storage_config.filesystem.directory).toBe('/var/lib/logsvc/chunks');
    expect(c.compactor.working_directory).toBe('/var/lib/logsvc/compactor');
    expect(parseConfig({ ingester: { wal: { dir: '/wal' } } }).ingester.wal.dir).toBe('/wal');
  });
});

describe('parseConfig', () => {
  const errorOf = (raw: unknown) => {
    try {
      parseConfig(raw);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
    throw new Error('expected a ConfigError');
  };

  it('accepts durations and sizes in their YAML forms', () => {
    const c = parseConfig(
      parseYaml(`
limits_config:
  max_line_size: 1MB
  reject_old_samples_max_age: 1w
  query_timeout: 1h30m
ingester:
  chunk_target_size: 2097152
  chunk_idle_period: 300ms
`),
    );
    expect(c.limits_config.max_line_size).toBe(1024 * 1024);
    expect(c.limits_config.reject_old_samples_max_age).toBe(604_800_000);
    expect(c.limits_config.query_timeout).toBe(5_400_000);
    expect(c.ingester.chunk_target_size).toBe(2_097_152);
    expect(c.ingester.chunk_idle_period).toBe(300);
  });

  it('keeps defaults for empty sections and keys', () => {
    const c = parseConfig(parseYaml('limits_config:\nserver:\n  http_listen_port:\n'));
    expect(c.server.http_listen_port).toBe(3100);
    expect(c.limits_config.max_line_size).toBe(262_144);
  });

  it('names the key of a bad value', () => {
    expect(errorOf({ limits_config: { max_line_size: 'abc' } })).toBe(
      'config error: limits_config.max_line_size: expected a size like 256KB, got "abc"',
    );
    expect(errorOf({ ingester: { chunk_idle_period: '30 minutes' } })).toBe(
      'config error: ingester.chunk_idle_period: expected a duration like 5m, got "30 minutes"',
    );
    expect(errorOf({ server: { http_listen_port: 'x' } })).toBe(
      'config error: server.http_listen_port: expected an integer, got "x"',
    );
    expect(errorOf({ server: { log_level: 'loud' } })).toBe(
      'config error: server.log_level: expected one of debug, info, warn, error, got "loud"',
    );
    expect(errorOf({ auth_enabled: 'yes' })).toBe(
      'config error: auth_enabled: expected true or false, got "yes"',
    );
  });

  it('rejects unknown keys with their path', () => {
    expect(errorOf({ limits_config: { max_line_sise: 1 } })).toBe(
      'config error: limits_config.max_line_sise: unknown key',
    );
    expect(errorOf({ nonsense: true })).toBe('config error: nonsense: unknown key');
    expect(errorOf({ schema_config: { configs: [{ from: '2024-01-01', extra: 1 }] } })).toBe(
      'config error: schema_config.configs.0.extra: unknown key',
    );
  });

  it('rejects a section that is not a map', () => {
    expect(errorOf({ server: 5 })).toBe('config error: server: expected a map, got 5');
  });

  it('validates rules that span fields', () => {
    expect(errorOf({ server: { http_listen_port: 70000 } })).toContain(
      'server.http_listen_port: must be a TCP port',
    );
    expect(errorOf({ limits_config: { increment_duplicate_timestamp: true } })).toContain(
      'config error: limits_config.increment_duplicate_timestamp: not supported by logsvc',
    );
    expect(
      errorOf({ frontend_worker: { frontend_address: 'a:1', scheduler_address: 'b:2' } }),
    ).toContain(
      'config error: frontend_worker: frontend address and scheduler address are mutually exclusive',
    );
    expect(errorOf({ ruler: { evaluation: { mode: 'remote' } } })).toContain(
      'config error: ruler.evaluation.query_frontend.address: must be set when ruler.evaluation.mode is remote',
    );
    expect(
      errorOf({
        schema_config: { configs: [{ from: '2024-02-01' }, { from: '2024-01-01' }] },
      }),
    ).toContain('schema_config.configs.1.from: periods must be in increasing order');
    expect(errorOf({ schema_config: { configs: [{ from: 'yesterday' }] } })).toContain(
      'schema_config.configs.0.from: expected a date like 2024-04-01',
    );
    expect(
      errorOf({ schema_config: { configs: [{ from: '2024-01-01', object_store: 's3' }] } }),
    ).toContain('storage_config.aws.bucketnames');
  });
});

describe('renderConfigYaml and diffConfig', () => {
  it('prints durations and sizes the way they are written, and re-parses to the same config', () => {
    const c = parseConfig({ limits_config: { max_line_size: '1MB', max_query_length: '30d' } });
    const text = renderConfigYaml(c);
    expect(text).toContain('max_line_size: 1MB');
    // As Loki's /config prints a model.Duration: weeks only when they divide exactly.
    expect(text).toContain('max_query_length: 30d');
    expect(text).toContain('chunk_idle_period: 30m');
    expect(parseConfig(parseYaml(text))).toEqual(c);
  });

  it('diffs only the values that differ from the defaults', () => {
    const c = parseConfig({ auth_enabled: false, limits_config: { max_line_size: '1MB' } });
    expect(diffConfig(c, defaultConfig())).toEqual({
      auth_enabled: false,
      limits_config: { max_line_size: 1024 * 1024 },
    });
    expect(renderConfigYaml(diffConfig(c, defaultConfig()))).toBe(
      'auth_enabled: false\nlimits_config:\n  max_line_size: 1MB\n',
    );
    expect(diffConfig(defaultConfig(), defaultConfig())).toEqual({});
  });

  it('compares lists as a whole', () => {
    const c = parseConfig({ limits_config: { log_level_fields: ['lvl'] } });
    expect(diffConfig(c, defaultConfig())).toEqual({
      limits_config: { log_level_fields: ['lvl'] },
    });
  });
});
