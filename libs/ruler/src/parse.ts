// Decoding of rule groups from YAML, as yaml.v3 decodes Prometheus' rulefmt.RuleGroup: unknown
// fields are ignored, scalars decode into strings, anything that does not fit its field fails.
import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { GoSyntaxError, modelParseDuration } from '@logsvc/gocompat';
import { ERR_BAD_RULE_GROUP, RuleGroupError } from './errors';
import type { Rule, RuleGroup } from './model';

class DecodeError extends Error {}

function fail(message: string): never {
  throw new DecodeError(message);
}

function entries(node: Node | null | undefined, what: string): Array<[string, Node | null]> {
  if (node == null || (isScalar(node) && node.value === null)) return [];
  if (!isMap(node)) fail(`${what}: expected a mapping`);
  return node.items.map((pair) => {
    const key = pair.key as Node | null;
    const k = key && isScalar(key) ? scalarText(key) : fail(`${what}: bad key`);
    return [k, (pair.value as Node | null) ?? null];
  });
}

function scalarText(node: Node): string {
  if (!isScalar(node)) fail('expected a scalar');
  const v = node.value;
  if (v === null || v === undefined) return '';
  // yaml.v3 decodes a scalar into a string field as its source text.
  if (typeof node.source === 'string') return node.source;
  return String(v);
}

function str(node: Node | null): string {
  return node == null ? '' : scalarText(node);
}

/** yaml.Node fields (record, alert, expr): any node; only a scalar has a value. */
function nodeValue(node: Node | null): string {
  return node != null && isScalar(node) ? scalarText(node) : '';
}

function duration(node: Node | null): number {
  const text = str(node);
  if (text === '') return 0;
  try {
    return modelParseDuration(text);
  } catch (err) {
    // Prometheus' own text: `unknown unit "x" in duration "5x"`, `not a valid duration string…`.
    if (err instanceof GoSyntaxError) fail(err.message);
    throw err;
  }
}

function int(node: Node | null): number {
  const text = str(node);
  if (text === '') return 0;
  if (!/^[-+]?\d+$/.test(text)) fail(`cannot unmarshal ${JSON.stringify(text)} into int`);
  return Number(text);
}

function stringMap(node: Node | null, what: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of entries(node, what)) out[k] = str(v);
  return out;
}

function decodeRule(node: Node | null): Rule {
  let record = '';
  let alert = '';
  let expr = '';
  let forMs = 0;
  let keepFiringForMs = 0;
  let labels: Record<string, string> = {};
  let annotations: Record<string, string> = {};
  for (const [k, v] of entries(node, 'rule')) {
    if (k === 'record') record = nodeValue(v);
    else if (k === 'alert') alert = nodeValue(v);
    else if (k === 'expr') expr = nodeValue(v);
    else if (k === 'for') forMs = duration(v);
    else if (k === 'keep_firing_for') keepFiringForMs = duration(v);
    else if (k === 'labels') labels = stringMap(v, 'labels');
    else if (k === 'annotations') annotations = stringMap(v, 'annotations');
  }
  return {
    ...(record !== '' ? { record } : {}),
    ...(alert !== '' ? { alert } : {}),
    expr,
    forMs,
    keepFiringForMs,
    labels,
    annotations,
  };
}

function decodeGroup(node: Node | null): RuleGroup {
  let name = '';
  let intervalMs = 0;
  let queryOffsetMs: number | undefined;
  let limit = 0;
  let rules: Rule[] = [];
  for (const [k, v] of entries(node, 'group')) {
    if (k === 'name') name = str(v);
    else if (k === 'interval') intervalMs = duration(v);
    else if (k === 'query_offset') queryOffsetMs = duration(v);
    else if (k === 'limit') limit = int(v);
    else if (k === 'rules') {
      if (v == null || (isScalar(v) && v.value === null)) rules = [];
      else if (!isSeq(v)) fail('rules: expected a sequence');
      else rules = v.items.map((item) => decodeRule(item as Node | null));
    }
  }
  return {
    name,
    intervalMs,
    ...(queryOffsetMs !== undefined ? { queryOffsetMs } : {}),
    limit,
    rules,
  };
}

function parseYaml(text: string): Node | null {
  const doc = parseDocument(text, { uniqueKeys: false, version: '1.2' });
  if (doc.errors.length > 0) fail(doc.errors[0].message);
  return (doc.contents as Node | null) ?? null;
}

/**
 * Decodes one rule group (the body of `POST /rules/{namespace}`). A body that does not decode
 * throws RuleGroupError with Loki's `unable to decoded rule group`.
 */
export function parseRuleGroup(text: string): RuleGroup {
  try {
    return decodeGroup(parseYaml(text));
  } catch (err) {
    if (err instanceof DecodeError) throw new RuleGroupError(ERR_BAD_RULE_GROUP);
    throw err;
  }
}

/** Decodes a Prometheus rule file (`groups: [...]`); throws RuleGroupError with the reason. */
export function parseRuleFile(text: string): RuleGroup[] {
  try {
    const root = parseYaml(text);
    for (const [k, v] of entries(root, 'rule file')) {
      if (k !== 'groups') continue;
      if (v == null || (isScalar(v) && v.value === null)) return [];
      if (!isSeq(v)) fail('groups: expected a sequence');
      return v.items.map((item) => decodeGroup(item as Node | null));
    }
    return [];
  } catch (err) {
    if (err instanceof DecodeError) throw new RuleGroupError(err.message);
    throw err;
  }
}
