import { describe, expect, it } from 'vitest';
import { linesWithParents } from './yaml-context';

describe('linesWithParents', () => {
  const text = [
    'common:', // 1
    '  path_prefix: /var/logsvc', // 2
    '  ring:', // 3
    '    # where', // 4
    '    kvstore:', // 5
    '      store: etcd', // 6
    '      endpoints:', // 7
    '        - a:2379', // 8
    'limits_config:', // 9
    '  max_line_size: 1MB', // 10
  ];

  it('keeps the marked lines and the keys that enclose them', () => {
    expect([...linesWithParents(text, [6, 10])].sort((a, b) => a - b)).toEqual([1, 3, 5, 6, 9, 10]);
    expect([...linesWithParents(text, [8])].sort((a, b) => a - b)).toEqual([1, 3, 5, 7, 8]);
  });

  it('adds nothing for top-level lines', () => {
    expect([...linesWithParents(text, [1, 9])]).toEqual([1, 9]);
  });
});
