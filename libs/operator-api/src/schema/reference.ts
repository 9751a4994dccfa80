import { FORMAT_EXAMPLES } from './formats';
import type { SchemaNode } from './nodes';

/** One row of the resource reference: a field, its type, default and meaning. */
export interface ReferenceRow {
  readonly path: string;
  readonly type: string;
  readonly default: string;
  readonly required: boolean;
  readonly description: string;
}

function typeName(node: SchemaNode): string {
  switch (node.kind) {
    case 'string':
      return node.format === undefined ? 'string' : `string (${node.format})`;
    case 'enum':
      return node.values.map((v) => `\`${v}\``).join(' \\| ');
    case 'int':
      return node.minimum !== undefined || node.maximum !== undefined
        ? `integer (${node.minimum ?? ''}..${node.maximum ?? ''})`
        : 'integer';
    case 'number':
      return 'number';
    case 'bool':
      return 'boolean';
    case 'quantity':
      return 'quantity';
    case 'array':
      return `list of ${typeName(node.items)}`;
    case 'map':
      return `map of ${node.keyName} → ${node.values.kind === 'object' ? 'object' : typeName(node.values)}`;
    case 'object':
      return 'object';
    case 'opaque':
      return 'object (free form)';
  }
}

/** Every field of a schema, depth first, in declaration order. */
export function referenceRows(node: SchemaNode, path: string): ReferenceRow[] {
  const rows: ReferenceRow[] = [];
  const visit = (n: SchemaNode, p: string, required: boolean) => {
    const dflt =
      n.default === undefined || (n.kind === 'object' && Object.keys(n.default).length === 0)
        ? ''
        : `\`${JSON.stringify(n.default)}\`${n.presettable === true ? ", or `spec.size`'s" : ''}`;
    const format =
      n.kind === 'string' && n.format !== undefined ? ` (${FORMAT_EXAMPLES[n.format]})` : '';
    rows.push({
      path: p,
      type: typeName(n),
      default: dflt,
      required,
      description: n.description + format,
    });
    if (n.kind === 'object')
      for (const [name, field] of Object.entries(n.fields))
        visit(field, `${p}.${name}`, field.required === true);
    if (n.kind === 'map' && n.values.kind === 'object')
      for (const [name, field] of Object.entries(n.values.fields))
        visit(field, `${p}.<${n.keyName}>.${name}`, field.required === true);
    if (n.kind === 'array' && n.items.kind === 'object')
      for (const [name, field] of Object.entries(n.items.fields))
        visit(field, `${p}[].${name}`, field.required === true);
  };
  visit(node, path, false);
  return rows;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The reference as a Markdown table. */
export function referenceMarkdown(node: SchemaNode, path: string): string {
  const lines = ['| Field | Type | Default | Description |', '| --- | --- | --- | --- |'];
  for (const row of referenceRows(node, path)) {
    const name = `\`${row.path}\`${row.required ? ' (required)' : ''}`;
    // typeName already escapes the enum separator.
    lines.push(`| ${name} | ${row.type} | ${row.default} | ${cell(row.description)} |`);
  }
  return lines.join('\n') + '\n';
}
