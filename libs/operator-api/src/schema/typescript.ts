import type { ObjectNode, SchemaNode } from './nodes';

/**
 * TypeScript declarations of a schema: `resolved` types have every defaulted field present (what
 * the operator works with after `applyDefaults`), `input` types only the required ones (what a
 * user writes). Objects with a `typeName` become named interfaces (`<Name>` or `<Name>Input`).
 */
export function toTypeScript(root: ObjectNode, form: 'resolved' | 'input'): string {
  const suffix = form === 'input' ? 'Input' : '';
  const declared = new Map<string, string>();

  const typeOf = (node: SchemaNode, indent: string): string => {
    switch (node.kind) {
      case 'string':
        return 'string';
      case 'enum':
        return node.values.map((v) => `'${v}'`).join(' | ');
      case 'int':
      case 'number':
        return 'number';
      case 'bool':
        return 'boolean';
      case 'quantity':
        return 'string | number';
      case 'array': {
        const item = typeOf(node.items, indent);
        return item.includes('|') ? `(${item})[]` : `${item}[]`;
      }
      case 'map':
        return `Record<string, ${typeOf(node.values, indent)}>`;
      case 'opaque':
        return 'Record<string, unknown>';
      case 'object':
        if (node.typeName !== undefined) {
          declare(node);
          return node.typeName + suffix;
        }
        return body(node, indent);
    }
  };

  const body = (node: ObjectNode, indent: string): string => {
    const inner = indent + '  ';
    const lines = Object.entries(node.fields).map(([name, field]) => {
      const present =
        field.required === true || (form === 'resolved' && field.default !== undefined);
      return `${inner}/** ${field.description.replace(/\*\//g, '*\\/')} */\n${inner}${name}${present ? '' : '?'}: ${typeOf(field, inner)};`;
    });
    return `{\n${lines.join('\n')}\n${indent}}`;
  };

  function declare(node: ObjectNode): void {
    const name = (node.typeName ?? 'Unnamed') + suffix;
    if (declared.has(name)) return;
    declared.set(name, ''); // reserve: a type may refer to itself through a field
    declared.set(name, `/** ${node.description} */\nexport interface ${name} ${body(node, '')}\n`);
  }

  declare(root);
  return [...declared.values()].join('\n');
}
