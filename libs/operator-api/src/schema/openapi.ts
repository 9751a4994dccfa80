import { FORMAT_PATTERNS } from './formats';
import type { SchemaNode } from './nodes';

/** An OpenAPI v3 schema as Kubernetes' apiextensions/v1 takes it (structural). */
export interface OpenApiSchema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  description?: string;
  default?: unknown;
  enum?: readonly string[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: OpenApiSchema;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  additionalProperties?: OpenApiSchema;
  anyOf?: OpenApiSchema[];
  'x-kubernetes-int-or-string'?: true;
  'x-kubernetes-preserve-unknown-fields'?: true;
  'x-kubernetes-list-type'?: 'set' | 'atomic';
}

/** The structural schema of a node: every level has a type, defaults are pruned-safe. */
export function toOpenApi(node: SchemaNode): OpenApiSchema {
  const out: OpenApiSchema = {};
  const base = (type: OpenApiSchema['type']) => {
    if (type !== undefined) out.type = type;
    out.description = node.description;
    if (node.default !== undefined && node.presettable !== true) out.default = node.default;
  };
  switch (node.kind) {
    case 'string':
      base('string');
      if (node.format !== undefined) out.pattern = FORMAT_PATTERNS[node.format];
      if (node.pattern !== undefined) out.pattern = node.pattern;
      if (node.minLength !== undefined) out.minLength = node.minLength;
      if (node.maxLength !== undefined) out.maxLength = node.maxLength;
      return out;
    case 'enum':
      base('string');
      out.enum = node.values;
      return out;
    case 'int':
    case 'number':
      base(node.kind === 'int' ? 'integer' : 'number');
      if (node.minimum !== undefined) out.minimum = node.minimum;
      if (node.kind === 'int' && node.maximum !== undefined) out.maximum = node.maximum;
      return out;
    case 'bool':
      base('boolean');
      return out;
    case 'quantity':
      // Structural schemas allow int-or-string only in this exact shape.
      base(undefined);
      out['x-kubernetes-int-or-string'] = true;
      out.anyOf = [{ type: 'integer' }, { type: 'string' }];
      // As controller-gen writes resource.Quantity: the pattern applies to the string form.
      out.pattern = FORMAT_PATTERNS.quantity;
      return out;
    case 'array':
      base('array');
      out.items = toOpenApi(node.items);
      if (node.minItems !== undefined) out.minItems = node.minItems;
      if (node.maxItems !== undefined) out.maxItems = node.maxItems;
      if (node.unique) out['x-kubernetes-list-type'] = 'set';
      return out;
    case 'map':
      base('object');
      out.additionalProperties = toOpenApi(node.values);
      return out;
    case 'object': {
      base('object');
      out.properties = {};
      const required: string[] = [];
      for (const [name, field] of Object.entries(node.fields)) {
        out.properties[name] = toOpenApi(field);
        if (field.required) required.push(name);
      }
      if (required.length > 0) out.required = required;
      return out;
    }
    case 'opaque':
      base('object');
      out['x-kubernetes-preserve-unknown-fields'] = true;
      return out;
  }
}
