import { describe, expect, it } from 'vitest';
import { readRuleGroup, serverErrorLine } from './rule-yaml';

const GROUP = `name: g
rules:
  - record: a:b
    expr: sum(rate({app="x"}[1m]))
  - alert: Boom
    expr: |
      sum(rate({app="x"} |= "error" [1m])) > 1
`;

describe('readRuleGroup', () => {
  it('finds each expression with the line it starts on', () => {
    const read = readRuleGroup(GROUP);
    expect(read.problems).toEqual([]);
    expect(read.name).toBe('g');
    expect(read.expressions.map((e) => [e.name, e.line])).toEqual([
      ['a:b', 4],
      ['Boom', 6],
    ]);
  });

  it('reports YAML errors and missing fields at their line', () => {
    const duplicate = readRuleGroup(
      'name: g\nrules:\n  - record: x\n    record: y\n    expr: up\n',
    );
    expect(duplicate.problems.map((p) => p.line)).toEqual([4]);
    expect(readRuleGroup('name: g\nrules:\n  - record: x\n').problems).toEqual([
      { line: 3, message: 'a rule needs an expr' },
    ]);
    expect(readRuleGroup('rules: []\n').problems).toEqual([
      { line: 1, message: 'the group needs a name' },
    ]);
  });

  it('puts a server error naming a rule on that rule expression', () => {
    const message = "could not parse expression for alert 'Boom' in group 'g': parse error";
    expect(serverErrorLine(message, GROUP)).toBe(6);
    expect(serverErrorLine('unable to decoded rule group', GROUP)).toBe(1);
  });
});
