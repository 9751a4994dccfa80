// YAML output as Loki writes it (gopkg.in/yaml.v3 with its default indent of 4: nested
// collections align to multiples of 4, a mapping inside a sequence item starts after "- ").
import { stringify } from 'yaml';
import { formatModelDuration } from './duration';
import type { Rule, RuleGroup } from './model';

type Line = [indent: number, text: string];

function scalar(value: string, indent: number): string[] {
  if (value.includes('\n')) {
    const chomp = value.endsWith('\n') ? '' : '-';
    const body = value.endsWith('\n') ? value.slice(0, -1) : value;
    const pad = ' '.repeat(indent);
    return [`|${chomp}`, ...body.split('\n').map((l) => (l === '' ? '' : pad + l))];
  }
  return [stringify(value, { singleQuote: true, lineWidth: 0 }).replace(/\n$/, '')];
}

function key(name: string): string {
  return scalar(name, 0)[0];
}

function nested(indent: number): number {
  return 4 * Math.floor((indent + 4) / 4);
}

function pair(out: Line[], indent: number, name: string, value: string): void {
  const [first, ...rest] = scalar(value, nested(indent));
  out.push([indent, `${key(name)}: ${first}`]);
  for (const l of rest) out.push([0, l]);
}

function stringMap(out: Line[], indent: number, name: string, m: Readonly<Record<string, string>>) {
  const keys = Object.keys(m).sort();
  if (keys.length === 0) return;
  out.push([indent, `${name}:`]);
  for (const k of keys) pair(out, nested(indent), k, m[k]);
}

function rule(out: Line[], indent: number, r: Rule): void {
  const start = out.length;
  if (r.record) pair(out, indent, 'record', r.record);
  if (r.alert) pair(out, indent, 'alert', r.alert);
  pair(out, indent, 'expr', r.expr);
  if (r.forMs) pair(out, indent, 'for', formatModelDuration(r.forMs));
  if (r.keepFiringForMs)
    pair(out, indent, 'keep_firing_for', formatModelDuration(r.keepFiringForMs));
  stringMap(out, indent, 'labels', r.labels);
  stringMap(out, indent, 'annotations', r.annotations);
  markItem(out, start, indent);
}

/** Turns the first line of a sequence item's mapping into `- key: ...`. */
function markItem(out: Line[], start: number, indent: number): void {
  out[start] = [indent - 2, `- ${out[start][1]}`];
}

function group(out: Line[], indent: number, g: RuleGroup): void {
  pair(out, indent, 'name', g.name);
  if (g.intervalMs) pair(out, indent, 'interval', formatModelDuration(g.intervalMs));
  if (g.queryOffsetMs !== undefined)
    pair(out, indent, 'query_offset', formatModelDuration(g.queryOffsetMs));
  if (g.limit) out.push([indent, `limit: ${g.limit}`]);
  if (g.rules.length === 0) {
    out.push([indent, 'rules: []']);
    return;
  }
  out.push([indent, 'rules:']);
  const itemIndent = nested(indent) + 2;
  for (const r of g.rules) rule(out, itemIndent, r);
}

function groupList(out: Line[], indent: number, groups: readonly RuleGroup[]): void {
  const itemIndent = nested(indent) + 2;
  for (const g of groups) {
    const start = out.length;
    group(out, itemIndent, g);
    markItem(out, start, itemIndent);
  }
}

function render(lines: Line[]): string {
  return lines.map(([indent, text]) => ' '.repeat(indent) + text).join('\n') + '\n';
}

/** One group, as `GET /rules/{namespace}/{group}` answers it. */
export function formatRuleGroup(g: RuleGroup): string {
  const out: Line[] = [];
  group(out, 0, g);
  return render(out);
}

/** Namespaces to their groups, as `GET /rules` and `GET /rules/{namespace}` answer. */
export function formatNamespaces(namespaces: ReadonlyMap<string, readonly RuleGroup[]>): string {
  const out: Line[] = [];
  for (const [ns, groups] of namespaces) {
    if (groups.length === 0) {
      out.push([0, `${key(ns)}: []`]);
      continue;
    }
    out.push([0, `${key(ns)}:`]);
    groupList(out, 0, groups);
  }
  return out.length === 0 ? '{}\n' : render(out);
}

/** A Prometheus rule file (`groups: [...]`), the stored form of a namespace. */
export function formatRuleFile(groups: readonly RuleGroup[]): string {
  if (groups.length === 0) return 'groups: []\n';
  const out: Line[] = [[0, 'groups:']];
  groupList(out, 0, groups);
  return render(out);
}
