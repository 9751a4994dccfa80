import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { diffConfig } from './diff';
import { loadConfig } from './load';
import { defaultConfig, parseConfig } from './parse';
import { renderConfigYaml } from './render';

describe('common settings applied at load', () => {
  it('puts chunks in common.storage.filesystem.chunks_directory unless storage_config says', () => {
    expect(
      loadConfig(['-common.storage.filesystem.chunk-directory=/loki/chunks']).storage_config
        .filesystem.directory,
    ).toBe('/loki/chunks');
    const own = parseConfig({
      common: { storage: { filesystem: { chunks_directory: '/loki/chunks' } } },
      storage_config: { filesystem: { directory: '/data/chunks' } },
    });
    expect(own.storage_config.filesystem.directory).toBe('/data/chunks');
  });

  it('shows the applied values in /config, and that output loads to the same config', () => {
    for (const config of [
      defaultConfig(),
      parseConfig({
        target: 'ingester',
        common: { ring: { kvstore: { store: 'etcd', etcd: { endpoints: ['etcd:2379'] } } } },
      }),
    ]) {
      expect(parseConfig(parseYaml(renderConfigYaml(config)))).toEqual(config);
    }
    const etcd = parseConfig({ common: { ring: { kvstore: { store: 'etcd' } } } });
    expect(diffConfig(etcd, defaultConfig())).toMatchObject({
      distributor: { ring: { kvstore: { store: 'etcd' } } },
      compactor: { compactor_ring: { kvstore: { store: 'etcd' } } },
    });
  });
});
