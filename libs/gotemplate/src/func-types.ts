import type { Value } from './values';

/**
 * Go parameter types of template functions; they decide how arguments are checked and how
 * literals convert (Go's evalArg). `value` is reflect.Value (the Go builtins), `any` interface{}.
 */
export type ParamType =
  'string' | 'int' | 'float64' | 'bool' | 'any' | 'value' | 'time' | 'duration';

/** Per-execution inputs some functions read (`__line__`, `__timestamp__`). */
export interface CallContext {
  line: string;
  timestampNs: bigint;
}

export interface FuncDef {
  params: readonly ParamType[];
  /** Element type of a trailing variadic parameter. */
  variadic?: ParamType;
  /** Go's and/or evaluate arguments lazily and return one of them. */
  shortCircuit?: 'and' | 'or';
  /** Whether the function reads the current line (for `usesLine`). */
  readsLine?: boolean;
  /** Throws FuncError for Go functions that return an error. */
  call(args: Value[], ctx: CallContext): Value;
}

export type FuncMap = ReadonlyMap<string, FuncDef>;
