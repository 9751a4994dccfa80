// A small schema language for the LogService resource. One definition gives the TypeScript
// types (generated: typescript.ts), the CRD's OpenAPI v3 structural schema, the validator the
// operator and the admin UI run, and the docs reference. Pure: no Node modules (the UI imports
// it).

/** Value formats checked beyond the JSON type. */
export type StringFormat = 'duration' | 'size' | 'quantity' | 'dns-label' | 'host-port';

interface NodeBase<T> {
  readonly description: string;
  /** Filled in when the field is absent (by the API server and by `applyDefaults`). */
  readonly default?: T;
  /**
   * The default is the operator's, not the API server's (left out of the CRD): a size preset
   * (`spec.size`) fills the field first, so that only what is written wins over the preset.
   */
  readonly presettable?: boolean;
  /** Must be written (and is never defaulted). */
  readonly required?: boolean;
}

export interface StringNode extends NodeBase<string> {
  readonly kind: 'string';
  readonly format?: StringFormat;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
}

export interface EnumNode extends NodeBase<string> {
  readonly kind: 'enum';
  readonly values: readonly string[];
}

export interface IntNode extends NodeBase<number> {
  readonly kind: 'int';
  readonly minimum?: number;
  readonly maximum?: number;
}

export interface NumberNode extends NodeBase<number> {
  readonly kind: 'number';
  readonly minimum?: number;
}

export interface BoolNode extends NodeBase<boolean> {
  readonly kind: 'bool';
}

/** A Kubernetes quantity (`500m`, `2`, `1Gi`): an integer or a string. */
export interface QuantityNode extends NodeBase<string | number> {
  readonly kind: 'quantity';
}

export interface ArrayNode extends NodeBase<readonly unknown[]> {
  readonly kind: 'array';
  readonly items: SchemaNode;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly unique?: boolean;
}

export interface MapNode extends NodeBase<Readonly<Record<string, unknown>>> {
  readonly kind: 'map';
  readonly values: SchemaNode;
  /** What a key is, for the docs ("tenant ID"). */
  readonly keyName: string;
}

export type Fields = Readonly<Record<string, SchemaNode>>;

export interface ObjectNode extends NodeBase<Readonly<Record<string, unknown>>> {
  readonly kind: 'object';
  readonly fields: Fields;
  /** Name of the generated TypeScript interface; inline when absent. */
  readonly typeName?: string;
}

/** Free-form data the schema does not describe (kept as written). */
export interface OpaqueNode extends NodeBase<Record<string, unknown>> {
  readonly kind: 'opaque';
}

export type SchemaNode =
  | StringNode
  | EnumNode
  | IntNode
  | NumberNode
  | BoolNode
  | QuantityNode
  | ArrayNode
  | MapNode
  | ObjectNode
  | OpaqueNode;
