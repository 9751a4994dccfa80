import { describe, expect, it } from 'vitest';
import { relateLines } from './logservice-lines';
import { yamlLeaves } from './yaml-leaves';

const rendered = [
  'auth_enabled: false', // 1
  'server:', // 2
  '  http_listen_port: 3100', // 3
  'common:', // 4
  '  replication_factor: 3', // 5
  '  ring:', // 6
  '    instance_addr: ${POD_IP}', // 7
  '    kvstore:', // 8
  '      etcd:', // 9
  '        endpoints:', // 10
  '          - logs-etcd:2379', // 11
  'compactor:', // 12
  '  retention_enabled: true', // 13
  '  retention_delete_delay: 2h', // 14
  'limits_config:', // 15
  '  max_line_size: 512KB', // 16
  '',
].join('\n');

// What /config?mode=diff answers for that file, expanded and completed by logsvc.
const diff = [
  'auth_enabled: false',
  'common:',
  '  replication_factor: 3',
  '  ring:',
  '    instance_addr: 10.0.0.7',
  '    kvstore:',
  '      store: etcd',
  '      etcd:',
  '        endpoints:',
  '          - logs-etcd:2379',
  'compactor:',
  '  retention_enabled: true',
  '  retention_delete_delay: 2h0m0s',
  'limits_config:',
  '  max_line_size: 512KB',
  '',
].join('\n');

const defaults = [
  'auth_enabled: true',
  'server:',
  '  http_listen_port: 3100',
  'common:',
  '  replication_factor: 1',
  '  ring:',
  '    instance_addr: ""',
  '    kvstore:',
  '      etcd:',
  '        endpoints: []',
  'compactor:',
  '  retention_enabled: false',
  '  retention_delete_delay: 2h0m0s',
  'limits_config:',
  '  max_line_size: 256KB',
  '',
].join('\n');

const spec = [
  'mode: SimpleScalable', // 1
  'authEnabled: false', // 2
  'replicationFactor: 3', // 3
  'retention:', // 4
  '  enabled: true', // 5
  '  deleteDelay: 2h', // 6
  'limits:', // 7
  '  global:', // 8
  '    maxLineSize: 512KB', // 9
  '  tenants:', // 10
  '    team-b:', // 11
  '      maxLineSize: 1MB', // 12
  '',
].join('\n');

describe('relateLines', () => {
  const related = relateLines(spec, rendered, diff, '# ignored\n' + defaults);

  it('marks the rendered lines whose setting differs from the defaults, with the default', () => {
    expect([...related.config.keys()]).toEqual([1, 5, 7, 10, 11, 13, 14, 16]);
    // Set in the file but equal to the default: not marked.
    expect(related.config.has(3)).toBe(false);
    expect(related.config.get(16)).toMatchObject({
      path: 'limits_config.max_line_size',
      defaultText: '256KB',
    });
    expect(related.config.get(7)?.defaultText).toBe('""');
    // A list is one setting over its lines.
    expect(related.config.get(11)).toBe(related.config.get(10));
    expect(related.config.get(10)?.defaultText).toBe('[]');
    expect(related.changedSettings).toBe(7);
  });

  it('relates spec lines to the config settings of the same name and value', () => {
    expect(Object.fromEntries(related.spec)).toEqual({
      2: [1], // authEnabled → auth_enabled
      3: [5], // replicationFactor → common.replication_factor
      5: [13], // retention.enabled → retention_enabled
      6: [14], // retention.deleteDelay → retention_delete_delay
      9: [16], // limits.global.maxLineSize → max_line_size
    });
    // A tenant's limit with another value goes to runtime.yaml, not to this file.
    expect(related.spec.has(12)).toBe(false);
    expect(related.config.get(16)?.specLines).toEqual([9]);
  });

  it('marks nothing when the texts are not YAML maps', () => {
    const none = relateLines('a: [', 'x: 1', '- 1', '');
    expect(none.config.size).toBe(0);
    expect(none.spec.size).toBe(0);
  });
});

describe('yamlLeaves', () => {
  it('lists every scalar or list setting with its lines, nested maps walked', () => {
    expect(yamlLeaves('a: 1\nb:\n  c: x\n  d:\n    - 1\n    - 2\ne: {}\nf:\n')).toEqual([
      { path: ['a'], firstLine: 1, lastLine: 1, value: 1 },
      { path: ['b', 'c'], firstLine: 3, lastLine: 3, value: 'x' },
      { path: ['b', 'd'], firstLine: 4, lastLine: 6, value: [1, 2] },
      { path: ['f'], firstLine: 8, lastLine: 8, value: null },
    ]);
  });
});
