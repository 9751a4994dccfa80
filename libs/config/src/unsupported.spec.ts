import { describe, expect, it } from 'vitest';
import { loadConfig } from './load';
import { parseRuntimeConfig } from './overrides';
import { configSchema } from './schema';
import { UNSUPPORTED_KEYS } from './unsupported';

const fromYaml = (text: string) => loadConfig(['-config.file=loki.yaml'], { readFile: () => text });

describe('settings that are not supported yet', () => {
  it('stop start-up when a YAML file sets one to another value than its default', () => {
    expect(() => fromYaml('ruler:\n  rule_path: /tmp/rules-temp\n')).toThrow(
      'config error: ruler.rule_path is not supported yet',
    );
    expect(() => fromYaml('limits_config:\n  max_query_range: 744h\n')).toThrow(
      'config error: limits_config.max_query_range is not supported yet',
    );
    expect(() => fromYaml('ingester:\n  lifecycler:\n    observe_period: 10s\n')).toThrow(
      'config error: ingester.lifecycler.observe_period is not supported yet',
    );
  });

  it('name every such key in one message', () => {
    expect(() =>
      fromYaml('compactor:\n  retention_delete_worker_count: 10\nquery_range:\n  max_retries: 3\n'),
    ).toThrow(
      'config error: query_range.max_retries is not supported yet\n' +
        'config error: compactor.retention_delete_worker_count is not supported yet',
    );
  });

  it('stop start-up when a flag sets one', () => {
    expect(() => loadConfig(['-querier.extra-query-delay=1s'])).toThrow(
      'config error: querier.extra_query_delay is not supported yet',
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

  it('include cluster keys nothing reads, refused only when they change something', () => {
    expect(() =>
      fromYaml('query_scheduler:\n  scheduler_ring:\n    instance_enable_ipv6: true\n'),
    ).toThrow(
      'config error: query_scheduler.scheduler_ring.instance_enable_ipv6 is not supported yet',
    );
    expect(() => loadConfig(['-common.storage.ring.instance-interface-names=eth1'])).toThrow(
      'config error: common.ring.instance_interface_names is not supported yet',
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
      parseRuntimeConfig('overrides:\n  team-a:\n    max_query_range: 30d\n', 'rt.yaml'),
    ).toThrow(
      'runtime config error: rt.yaml: overrides.team-a.max_query_range is not supported yet',
    );
    expect(
      parseRuntimeConfig('overrides:\n  team-a:\n    max_line_size: 1MB\n', 'rt.yaml').get(
        'team-a',
      ),
    ).toEqual({ max_line_size: 1024 * 1024 });
  });

  it('are all keys the schema has', () => {
    const defaults = configSchema.parse({}) as unknown as Record<string, Record<string, unknown>>;
    for (const key of UNSUPPORTED_KEYS) {
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
