import type {
  ArrayNode,
  BoolNode,
  EnumNode,
  Fields,
  IntNode,
  MapNode,
  NumberNode,
  ObjectNode,
  OpaqueNode,
  QuantityNode,
  SchemaNode,
  StringFormat,
  StringNode,
} from './nodes';

type Options<N> = Omit<N, 'kind' | 'description' | 'values' | 'items' | 'fields' | 'keyName'>;

/** Builders of schema nodes. */
export const s = {
  string: (description: string, options?: Options<StringNode>): StringNode => ({
    kind: 'string',
    description,
    ...options,
  }),
  format: (
    format: StringFormat,
    description: string,
    options?: Options<StringNode>,
  ): StringNode => ({
    kind: 'string',
    format,
    description,
    ...options,
  }),
  enum: (
    values: readonly string[],
    description: string,
    options?: Options<EnumNode>,
  ): EnumNode => ({
    kind: 'enum',
    values,
    description,
    ...options,
  }),
  int: (description: string, options?: Options<IntNode>): IntNode => ({
    kind: 'int',
    description,
    ...options,
  }),
  number: (description: string, options?: Options<NumberNode>): NumberNode => ({
    kind: 'number',
    description,
    ...options,
  }),
  bool: (description: string, options?: Options<BoolNode>): BoolNode => ({
    kind: 'bool',
    description,
    ...options,
  }),
  quantity: (description: string, options?: Options<QuantityNode>): QuantityNode => ({
    kind: 'quantity',
    description,
    ...options,
  }),
  array: (items: SchemaNode, description: string, options?: Options<ArrayNode>): ArrayNode => ({
    kind: 'array',
    items,
    description,
    ...options,
  }),
  map: (
    keyName: string,
    values: SchemaNode,
    description: string,
    options?: Options<MapNode>,
  ): MapNode => ({ kind: 'map', keyName, values, description, ...options }),
  object: (fields: Fields, description: string, options?: Options<ObjectNode>): ObjectNode => ({
    kind: 'object',
    fields,
    description,
    ...options,
  }),
  opaque: (description: string): OpaqueNode => ({ kind: 'opaque', description }),
};

/** An object node whose absence means `{}`, so that its own fields' defaults apply. */
export function defaulted(fields: Fields, description: string, typeName?: string): ObjectNode {
  return { kind: 'object', fields, description, default: {}, ...(typeName ? { typeName } : {}) };
}
