import { describe, expect, it } from 'vitest';
import { loadConfig, loadConfigReport } from './load';
import { parseRuntimeConfig } from './overrides';
import { configSchema } from './schema';
import { ruleFor } from './key-classes';
import { NOT_WIRED } from './unsupported';

const fromYaml = (text: string) => loadConfig(['-config.file=loki.yaml'], { readFile: () => text });

const REFUSED = 'not supported by logsvc: ';

describe('schema keys that are not wired', () => {
  it('stop start-up when a YAML file sets a refused one to another value than its default', () => {
    expect(() => fromYaml('limits_config:\n  increment_duplicate_timestamp: true\n')).toThrow(
      `config error: limits_config.increment_duplicate_timestamp: ${REFUSED}a limit logsvc does not enforce`,
    );
    expect(() =>
      fromYaml('ingester:\n  lifecycler:\n    ring:\n      excluded_zones: [a]\n'),
    ).toThrow(`config error: ingester.lifecycler.ring.excluded_zones: ${REFUSED}`);
  });

  it('load with a warning when they have no effect', () => {
    const { warnings } = loadConfigReport(['-config.file=loki.yaml'], {
      readFile: () => 'ruler:\n  rule_path: /tmp/rules-temp\nquery_range:\n  max_retries: 3\n',
    });
    expect(warnings.map((w) => w.key)).toEqual(['ruler.rule_path', 'query_range.max_retries']);
    expect(warnings[0].reason).toContain('not a temporary directory');
  });

  it('name every refused key in one message', () => {
    expect(() =>
      fromYaml(
        'limits_config:\n  increment_duplicate_timestamp: true\ningester:\n  lifecycler:\n    ring:\n      excluded_zones: [a]\n',
      ),
    ).toThrow(`config error: limits_config.increment_duplicate_timestamp: ${REFUSED}`);
    expect(() =>
      fromYaml(
        'limits_config:\n  increment_duplicate_timestamp: true\ningester:\n  lifecycler:\n    ring:\n      excluded_zones: [a]\n',
      ),
    ).toThrow(`config error: ingester.lifecycler.ring.excluded_zones: ${REFUSED}`);
  });

  it('stop start-up when a flag sets a refused one', () => {
    expect(() => loadConfig(['-querier.per-request-limits-enabled=true'])).toThrow(
      `config error: querier.per_request_limits_enabled: ${REFUSED}`,
    );
  });

  it('load fine when a Loki config writes them at their defaults', () => {
    const config = fromYaml(
      [
        'common:',
        '  path_prefix: /tmp/loki',
        '  replication_factor: 1',
        '  ring:',
        '    kvstore:',
        '      store: inmemory',
        'server:',
        '  grpc_listen_port: 9095',
        'ruler:',
        '  alertmanager_url: ""',
        'storage_config:',
        '  tsdb_shipper:',
        '    active_index_directory: /tmp/loki/tsdb-index',
        '    cache_location: /tmp/loki/tsdb-cache',
        'limits_config:',
        '  retention_period: 0s',
        '  split_queries_by_interval: 1h',
        '',
      ].join('\n'),
    );
    expect(config.common.path_prefix).toBe('/tmp/loki');
  });

  it('accept cluster keys nothing reads; refuse others only when they change something', () => {
    expect(() =>
      fromYaml('query_scheduler:\n  scheduler_ring:\n    instance_enable_ipv6: true\n'),
    ).not.toThrow();
    expect(() => loadConfig(['-common.storage.ring.instance-interface-names=eth1'])).not.toThrow();
    expect(() => fromYaml('common:\n  ring:\n    replication_factor: 2\n')).toThrow(
      `config error: common.ring.replication_factor: ${REFUSED}`,
    );
    // At their defaults, or at the values `common` gives them, they load.
    const config = fromYaml(
      [
        'common:',
        '  ring:',
        '    heartbeat_period: 10s',
        'compactor:',
        '  compactor_ring:',
        '    heartbeat_period: 10s',
        '    num_tokens: 1',
        'query_scheduler:',
        '  scheduler_ring:',
        '    heartbeat_period: 15s',
        '',
      ].join('\n'),
    );
    expect(config.compactor.compactor_ring.heartbeat_period).toBe(10_000);
  });

  it('are refused in per-tenant overrides too', () => {
    expect(() =>
      parseRuntimeConfig(
        'overrides:\n  team-a:\n    increment_duplicate_timestamp: true\n',
        'rt.yaml',
      ),
    ).toThrow(
      `runtime config error: rt.yaml: overrides.team-a.increment_duplicate_timestamp: ${REFUSED}`,
    );
    expect(
      parseRuntimeConfig('overrides:\n  team-a:\n    max_line_size: 1MB\n', 'rt.yaml').get(
        'team-a',
      ),
    ).toEqual({ max_line_size: 1024 * 1024 });
  });

  it('are all keys the schema has, each with a class', () => {
    const defaults = configSchema.parse({}) as unknown as Record<string, Record<string, unknown>>;
    for (const key of NOT_WIRED) {
      expect(ruleFor(key), key).toBeDefined();
      const parts = key.split('.');
      let node: unknown = defaults;
      for (const part of parts) {
        expect(node, key).toBeTypeOf('object');
        expect(Object.keys(node as object), key).toContain(part);
        node = (node as Record<string, unknown>)[part];
      }
    }
  });
});
