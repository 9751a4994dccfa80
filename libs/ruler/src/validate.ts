// Loki's ValidateGroups (pkg/ruler/compat.go): the checks and messages a rule group must pass
// before it is stored.
import { parseExpr } from '@logsvc/logql';
import type { Rule, RuleGroup } from './model';
import { checkAlertTemplate } from './template';

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function sortedEntries(m: Readonly<Record<string, string>>): Array<[string, string]> {
  return Object.entries(m).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The first problem of one rule, with Loki's text, or undefined. */
export function validateRule(r: Rule, groupName: string): string | undefined {
  const record = r.record ?? '';
  const alert = r.alert ?? '';
  if (record !== '' && alert !== '') return "only one of 'record' and 'alert' must be set";
  if (record === '' && alert === '') return "one of 'record' or 'alert' must be set";
  if (r.expr === '') return "field 'expr' must be set in rule";
  try {
    parseExpr(r.expr);
  } catch (err) {
    const kind = record !== '' ? 'record' : 'alert';
    return `could not parse expression for ${kind} '${record || alert}' in group '${groupName}': ${message(err)}`;
  }
  if (record !== '') {
    if (Object.keys(r.annotations).length > 0)
      return "invalid field 'annotations' in recording rule";
    if (r.forMs !== 0) return "invalid field 'for' in recording rule";
    if (!METRIC_NAME.test(record)) return `invalid recording rule name: ${record}`;
  }
  for (const [k, v] of sortedEntries(r.labels)) {
    if (!LABEL_NAME.test(k) || k === '__name__') return `invalid label name: ${k}`;
    if (!isValidUtf8(v)) return `invalid label value: ${v}`;
  }
  for (const [k] of sortedEntries(r.annotations)) {
    if (!LABEL_NAME.test(k)) return `invalid annotation name: ${k}`;
  }
  if (alert !== '') {
    for (const [what, map] of [
      ['label', r.labels],
      ['annotation', r.annotations],
    ] as const) {
      for (const [k, v] of sortedEntries(map)) {
        try {
          checkAlertTemplate(alert, v);
        } catch (err) {
          return `${what} ${JSON.stringify(k)}: ${message(err)}`;
        }
      }
    }
  }
  return undefined;
}

function isValidUtf8(s: string): boolean {
  return !/[\uD800-\uDFFF]/.test(s.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ''));
}

/**
 * Loki's ValidateGroups: every problem of the groups (as they come from one rule file or one
 * request), in order. The API joins them with `, `.
 */
export function validateGroups(groups: readonly RuleGroup[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  groups.forEach((g, i) => {
    if (g.name === '') problems.push(`group ${i}: Groupname must not be empty`);
    if (seen.has(g.name)) problems.push(`groupname: "${g.name}" is repeated in the same file`);
    seen.add(g.name);
    for (const r of g.rules) {
      const p = validateRule(r, g.name);
      if (p !== undefined) problems.push(p);
    }
  });
  return problems;
}
