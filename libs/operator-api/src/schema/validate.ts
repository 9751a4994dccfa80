import { FORMAT_EXAMPLES, FORMAT_PATTERNS } from './formats';
import type { SchemaNode } from './nodes';

/** One problem with a value: where (`spec.storage.s3.bucket`) and what. */
export interface SchemaIssue {
  readonly path: string;
  readonly message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const describe = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'a list'
      : typeof v === 'object'
        ? 'a map'
        : JSON.stringify(v);

/**
 * Checks a value against a node, the way the API server checks a custom resource against the
 * CRD's schema (types, enums, patterns, bounds, required and unknown fields), and returns every
 * problem. Unknown fields are reported, where the API server would silently prune them.
 */
export function validateNode(node: SchemaNode, value: unknown, path: string): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const bad = (message: string) => issues.push({ path, message });
  switch (node.kind) {
    case 'string': {
      if (typeof value !== 'string') {
        bad(`expected a string, got ${describe(value)}`);
        break;
      }
      if (node.minLength !== undefined && value.length < node.minLength)
        bad(
          node.minLength === 1
            ? 'must not be empty'
            : `must be at least ${node.minLength} characters`,
        );
      if (node.maxLength !== undefined && value.length > node.maxLength)
        bad(`must be at most ${node.maxLength} characters`);
      if (node.format !== undefined && !new RegExp(FORMAT_PATTERNS[node.format], 'u').test(value))
        bad(`expected ${FORMAT_EXAMPLES[node.format]}, got ${JSON.stringify(value)}`);
      if (node.pattern !== undefined && !new RegExp(node.pattern, 'u').test(value))
        bad(`${JSON.stringify(value)} does not match ${node.pattern}`);
      break;
    }
    case 'enum':
      if (typeof value !== 'string' || !node.values.includes(value))
        bad(`must be one of ${node.values.join(', ')}, got ${describe(value)}`);
      break;
    case 'int':
    case 'number': {
      const ok = typeof value === 'number' && (node.kind === 'number' || Number.isInteger(value));
      if (!ok) {
        bad(`expected ${node.kind === 'int' ? 'an integer' : 'a number'}, got ${describe(value)}`);
        break;
      }
      if (node.minimum !== undefined && value < node.minimum)
        bad(`must be at least ${node.minimum}`);
      if (node.kind === 'int' && node.maximum !== undefined && value > node.maximum)
        bad(`must be at most ${node.maximum}`);
      break;
    }
    case 'bool':
      if (typeof value !== 'boolean') bad(`expected true or false, got ${describe(value)}`);
      break;
    case 'quantity':
      if (
        typeof value === 'number'
          ? !Number.isInteger(value) || value < 0
          : typeof value !== 'string'
      )
        bad(`expected ${FORMAT_EXAMPLES.quantity}, got ${describe(value)}`);
      else if (typeof value === 'string' && !new RegExp(FORMAT_PATTERNS.quantity).test(value))
        bad(`expected ${FORMAT_EXAMPLES.quantity}, got ${JSON.stringify(value)}`);
      break;
    case 'array': {
      if (!Array.isArray(value)) {
        bad(`expected a list, got ${describe(value)}`);
        break;
      }
      if (node.minItems !== undefined && value.length < node.minItems)
        bad(`needs at least ${node.minItems} item${node.minItems === 1 ? '' : 's'}`);
      if (node.maxItems !== undefined && value.length > node.maxItems)
        bad(`takes at most ${node.maxItems} items`);
      if (node.unique && new Set(value.map((v) => JSON.stringify(v))).size !== value.length)
        bad('has duplicate items');
      value.forEach((item, i) => issues.push(...validateNode(node.items, item, `${path}[${i}]`)));
      break;
    }
    case 'map':
      if (!isObject(value)) {
        bad(`expected a map, got ${describe(value)}`);
        break;
      }
      for (const [key, item] of Object.entries(value))
        issues.push(...validateNode(node.values, item, `${path}.${key}`));
      break;
    case 'object': {
      if (!isObject(value)) {
        bad(`expected a map, got ${describe(value)}`);
        break;
      }
      for (const [name, field] of Object.entries(node.fields)) {
        const child = `${path}.${name}`;
        if (value[name] === undefined) {
          if (field.required) issues.push({ path: child, message: 'is required' });
          continue;
        }
        issues.push(...validateNode(field, value[name], child));
      }
      for (const name of Object.keys(value))
        if (!(name in node.fields))
          issues.push({ path: `${path}.${name}`, message: 'unknown field' });
      break;
    }
    case 'opaque':
      if (!isObject(value)) bad(`expected a map, got ${describe(value)}`);
      break;
  }
  return issues;
}
