import { describe, expect, it } from 'vitest';
import { loadConfig } from './load';

const fromYaml = (text: string) => loadConfig(['-config.file=loki.yaml'], { readFile: () => text });

describe('gossip and other ring stores', () => {
  it('refuse a memberlist block that sets anything', () => {
    expect(() => fromYaml('memberlist:\n  join_members: [loki-gossip:7946]\n')).toThrow(
      'config error: memberlist is not supported by logsvc, use etcd',
    );
  });

  it('accept an empty memberlist block, and leave it out of the config', () => {
    expect(fromYaml('memberlist:\n')).not.toHaveProperty('memberlist');
    expect(fromYaml('memberlist: {}\n')).not.toHaveProperty('memberlist');
  });

  it('refuse memberlist, consul and multi as a ring store, naming the key', () => {
    expect(() => fromYaml('common:\n  ring:\n    kvstore:\n      store: memberlist\n')).toThrow(
      'config error: common.ring.kvstore.store: kvstore store memberlist is not supported by ' +
        'logsvc: use etcd (or inmemory for a single process)',
    );
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
