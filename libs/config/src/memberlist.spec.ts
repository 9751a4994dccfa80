import { describe, expect, it } from 'vitest';
import { ConfigError } from './errors';
import { loadConfig, loadConfigReport } from './load';

const fromYaml = (text: string) => loadConfig(['-config.file=loki.yaml'], { readFile: () => text });

describe('gossip and other ring stores', () => {
  it('refuse members to join with one message that names etcd and the migration guide', () => {
    const yaml = [
      'common:',
      '  ring:',
      '    kvstore:',
      '      store: memberlist',
      'memberlist:',
      '  bind_port: 7946',
      '  join_members: [loki-gossip:7946]',
      '',
    ].join('\n');
    expect(() => fromYaml(yaml)).toThrowError(
      new ConfigError(
        'config error: memberlist.join_members: logsvc has no gossip ring store: use etcd (set ' +
          'common.ring.kvstore.store: etcd and common.ring.kvstore.etcd.endpoints; see ' +
          'docs/migrating-from-loki.md, "Rings") (at loki.yaml:7)',
      ),
    );
  });

  it('run a single process with memberlist and nobody to join on the in-memory ring', () => {
    const { config, warnings } = loadConfigReport(['-config.file=loki.yaml'], {
      readFile: () =>
        'common:\n  ring:\n    kvstore:\n      store: memberlist\nmemberlist:\n  bind_port: 7946\n',
    });
    expect(config.common.ring.kvstore.store).toBe('inmemory');
    expect(config.ingester.lifecycler.ring.kvstore.store).toBe('inmemory');
    expect(warnings.map((w) => w.key)).toEqual([
      'common.ring.kvstore.store',
      'memberlist.bind_port',
    ]);
  });

  it('accept an empty memberlist block, and leave it out of the config', () => {
    expect(fromYaml('memberlist:\n')).not.toHaveProperty('memberlist');
    expect(fromYaml('memberlist: {}\n')).not.toHaveProperty('memberlist');
  });

  it('refuse consul and multi as a ring store, naming the key', () => {
    expect(() => loadConfig(['-distributor.ring.store=consul'])).toThrow(
      'config error: distributor.ring.kvstore.store: kvstore store consul is not supported',
    );
    expect(() => loadConfig(['-ring.store=multi'])).toThrow(
      'config error: ingester.lifecycler.ring.kvstore.store: kvstore store multi is not supported',
    );
    expect(() => loadConfig(['-ring.store=redis'])).toThrow(
      'expected one of inmemory, etcd, got "redis"',
    );
  });
});
