// Reading a rule group's YAML in the editor: its syntax errors and each rule's LogQL expression,
// with the line each is on, so the editor marks the right line.
import { LineCounter, isMap, isScalar, isSeq, parseDocument } from 'yaml';

export interface LineProblem {
  /** 1-based line. */
  line: number;
  message: string;
}

export interface RuleExpression {
  line: number;
  expr: string;
  /** The rule's `alert` or `record` name. */
  name: string;
}

export interface ReadGroup {
  name?: string;
  expressions: RuleExpression[];
  problems: LineProblem[];
}

/** The group's name, its rules' `expr` values and what is wrong with its shape. */
export function readRuleGroup(text: string): ReadGroup {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false });
  const lineAt = (offset: number | undefined) =>
    offset === undefined ? 1 : counter.linePos(offset).line;
  const problems: LineProblem[] = doc.errors.map((e) => ({
    line: e.linePos?.[0].line ?? lineAt(e.pos[0]),
    message: e.message.split('\n')[0],
  }));
  if (problems.length > 0) return { expressions: [], problems };
  const root = doc.contents;
  if (!isMap(root))
    return {
      expressions: [],
      problems: [{ line: 1, message: 'a rule group is a map with name and rules' }],
    };
  const name = root.get('name');
  if (typeof name !== 'string' || name === '')
    problems.push({ line: 1, message: 'the group needs a name' });
  const rules = root.get('rules', true);
  const expressions: RuleExpression[] = [];
  if (!isSeq(rules)) {
    problems.push({ line: lineAt(root.range?.[0]), message: 'the group needs a list of rules' });
    return { name: typeof name === 'string' ? name : undefined, expressions, problems };
  }
  for (const rule of rules.items) {
    if (!isMap(rule)) {
      problems.push({
        line: lineAt((rule as { range?: [number] }).range?.[0]),
        message: 'a rule is a map',
      });
      continue;
    }
    const expr = rule.get('expr', true);
    const ruleLine = lineAt(rule.range?.[0]);
    if (!rule.has('alert') && !rule.has('record'))
      problems.push({ line: ruleLine, message: 'a rule needs alert or record' });
    if (!isScalar(expr) || typeof expr.value !== 'string' || expr.value.trim() === '') {
      problems.push({ line: ruleLine, message: 'a rule needs an expr' });
      continue;
    }
    const ruleName = rule.get('alert') ?? rule.get('record');
    expressions.push({
      line: lineAt(expr.range?.[0]),
      expr: expr.value,
      name: typeof ruleName === 'string' ? ruleName : '',
    });
  }
  return { name: typeof name === 'string' ? name : undefined, expressions, problems };
}

/**
 * The line of the editor a save error of the server is about: the rule's expression when the
 * message names the rule (`… for alert 'X' in group …`), else 1.
 */
export function serverErrorLine(message: string, text: string): number {
  const named = /for (?:alert|record) '([^']*)'/.exec(message);
  if (named) {
    const found = readRuleGroup(text).expressions.find((e) => e.name === named[1]);
    if (found) return found.line;
  }
  return 1;
}

/**
 * A LogQL parse message without its own line number (Loki counts lines of the expression, from
 * 0 in some messages): the editor gives the line, so only the column within the expression is
 * kept. `parse error at line 1, col 30: x` → `parse error at col 30 of the expression: x`.
 */
export function withoutQueryLine(message: string): string {
  return message.replace(/ at line \d+, col (\d+)/g, ' at col $1 of the expression');
}
