import type { ArgNode, ListNode, Node, PipeNode } from './ast';
import { BUILTINS } from './builtins';
import { fromEngineLimit } from './budget';
import { TemplateError } from './errors';
import { Compiler, ExecState } from './exec';
import type { FuncDef, FuncMap } from './func-types';
import { LOKI_FUNCTIONS } from './loki-functions';
import { Parser } from './parser';
import { LabelMap, type Value } from './values';

export { TemplateError } from './errors';
export { compareGoStrings, FuncError, LabelMap, type Value } from './values';
export { GoTime } from './go-time';
export { UTC } from './go-zone';
export type { FuncDef, FuncMap } from './func-types';
export { sprintf, formatValue } from './go-fmt';
export { formatFloat } from './go-float';
export { compileRegex, replaceAll } from './regex';
export { decodeUtf8AsGo } from './go-utf8';

export interface TemplateContext {
  line: string; // for __line__
  timestampNs: bigint; // for __timestamp__
}

export interface CompiledTemplate {
  /** Runs the template on a label map; throws TemplateError on execution errors. */
  execute(data: Readonly<Record<string, string>>, ctx: TemplateContext): string;
  /** Whether `__line__` is referenced (callers may skip building the line otherwise). */
  readonly usesLine: boolean;
  /** `.field` names used anywhere in the template. */
  readonly referencedFields: readonly string[];
}

export interface CompileOptions {
  /** Template name in messages: Loki uses "line" for line_format and "label" for label_format. */
  name?: string;
}

/** Every function a Loki template may call: Go's builtins plus Loki's function map. */
export const TEMPLATE_FUNCTIONS: ReadonlyMap<string, FuncDef> = new Map([
  ...BUILTINS,
  ...LOKI_FUNCTIONS,
]);

/**
 * Compiles a Go text/template with Loki's functions (as LogQL line_format / label_format do,
 * with `missingkey=zero`). Parse errors throw TemplateError with Go's message, e.g.
 * `template: line:1: function "foo" not defined`.
 */
export function compileTemplate(text: string, options: CompileOptions = {}): CompiledTemplate {
  const name = options.name ?? 'line';
  const parsed = new Parser(name, text, (fn) => TEMPLATE_FUNCTIONS.has(fn)).parse();
  const emit = new Compiler(name, text, TEMPLATE_FUNCTIONS).compileSet(parsed.root, parsed.defines);
  const refs = new References();
  refs.list(parsed.root);
  for (const list of parsed.defines.values()) refs.list(list);
  const simple = parsed.defines.size === 0 ? simpleParts(parsed.root) : undefined;
  if (simple) {
    // Only text and {{.label}}: plain concatenation, no execution state.
    return {
      usesLine: false,
      referencedFields: [...refs.fields],
      execute(data) {
        let out = '';
        for (let i = 0; i < simple.length; i++) {
          const p = simple[i];
          if (typeof p === 'string') out += p;
          else if (Object.prototype.hasOwnProperty.call(data, p.key)) out += data[p.key];
        }
        return out;
      },
    };
  }
  return {
    usesLine: refs.usesLine,
    referencedFields: [...refs.fields],
    execute: (data, ctx) => runCompiled(emit, new LabelMap(data), ctx),
  };
}

/** The template as text and label keys, if it has nothing else. */
function simpleParts(root: ListNode): (string | { key: string })[] | undefined {
  const parts: (string | { key: string })[] = [];
  for (const n of root.nodes) {
    if (n.kind === 'text') parts.push(n.text);
    else if (n.kind === 'action' && n.pipe.decl.length === 0 && n.pipe.cmds.length === 1) {
      const args = n.pipe.cmds[0].args;
      if (args.length !== 1 || args[0].kind !== 'field' || args[0].ident.length !== 1)
        return undefined;
      parts.push({ key: args[0].ident[0] });
    } else return undefined;
  }
  return parts;
}

/** Collects field names and `__line__` uses from a parse tree. */
class References {
  readonly fields = new Set<string>();
  usesLine = false;

  list(l: ListNode): void {
    for (const n of l.nodes) this.node(n);
  }

  private node(n: Node): void {
    switch (n.kind) {
      case 'action':
        this.pipe(n.pipe);
        break;
      case 'if':
      case 'with':
      case 'range':
        this.pipe(n.pipe);
        this.list(n.list);
        if (n.elseList) this.list(n.elseList);
        break;
      case 'template':
        if (n.pipe) this.pipe(n.pipe);
        break;
      case 'list':
        this.list(n);
        break;
    }
  }

  private pipe(p: PipeNode): void {
    for (const c of p.cmds) for (const a of c.args) this.arg(a);
  }

  private arg(a: ArgNode): void {
    switch (a.kind) {
      case 'field':
        this.fields.add(a.ident[0]);
        break;
      case 'identifier':
        if (TEMPLATE_FUNCTIONS.get(a.name)?.readsLine) this.usesLine = true;
        break;
      case 'chain':
        this.arg(a.node);
        break;
      case 'pipe':
        this.pipe(a);
        break;
    }
  }
}

export function isTemplateError(e: unknown): e is TemplateError {
  return e instanceof TemplateError;
}

/** A template compiled with a caller's function map, executed on any dot value. */
export interface GoTemplate {
  /** Throws TemplateError on execution errors. */
  execute(dot: Value): string;
}

/**
 * Compiles a Go text/template with Go's builtins plus `funcs` (Prometheus' alert templates use
 * this, with their own functions), `missingkey=zero`. Parse errors throw TemplateError with
 * Go's message.
 */
export function compileGoTemplate(text: string, name: string, funcs: FuncMap): GoTemplate {
  const all: FuncMap = new Map([...BUILTINS, ...funcs]);
  const parsed = new Parser(name, text, (fn) => all.has(fn)).parse();
  const emit = new Compiler(name, text, all).compileSet(parsed.root, parsed.defines);
  return { execute: (dot) => runCompiled(emit, dot) };
}

/** Runs a compiled template on `dot` with a fresh state; engine limits become Go's errors. */
function runCompiled(
  emit: (s: ExecState, dot: Value) => void,
  dot: Value,
  ctx: TemplateContext = { line: '', timestampNs: 0n },
): string {
  const state = new ExecState(ctx);
  state.vars.push({ name: '$', value: dot });
  try {
    emit(state, dot);
  } catch (err) {
    if (err instanceof RangeError) throw fromEngineLimit(err);
    throw err;
  }
  return state.out;
}

/** Go templates sharing their `define`s (Helm's model: one set over every file of a chart). */
export interface GoTemplateSet {
  /** Runs a file's template, or a `define`d one, by name. */
  execute(name: string, dot: Value): string;
  /** Names of the `define`d templates. */
  readonly defined: readonly string[];
}

/**
 * Compiles several Go template files into one set whose `define`s every file sees. `funcs`
 * receives `run(name, dot)`, the set's executor, so that functions like Helm's `include` can
 * render a defined template into a string.
 */
export function compileGoTemplateSet(
  files: Readonly<Record<string, string>>,
  funcs: (run: (name: string, dot: Value) => string) => FuncMap,
): GoTemplateSet {
  let runner: (name: string, dot: Value) => string = () => '';
  const all: FuncMap = new Map([...BUILTINS, ...funcs((name, dot) => runner(name, dot))]);
  const has = (fn: string) => all.has(fn);
  const parsed = Object.entries(files).map(([name, text]) => ({
    name,
    text,
    tree: new Parser(name, text, has).parse(),
  }));
  const defines = new Map<string, ListNode>();
  for (const p of parsed) for (const [name, list] of p.tree.defines) defines.set(name, list);
  const emits = new Map<string, (s: ExecState, dot: Value) => void>();
  for (const p of parsed)
    emits.set(p.name, new Compiler(p.name, p.text, all).compileSet(p.tree.root, defines));
  const run = runCompiled;
  const byDefine = new Map<string, (s: ExecState, dot: Value) => void>();
  runner = (name, dot) => {
    const file = emits.get(name);
    if (file !== undefined) return run(file, dot);
    let emit = byDefine.get(name);
    if (emit === undefined) {
      if (!defines.has(name))
        throw new TemplateError(
          `template: no template "${name}" associated with template "include"`,
        );
      const text = `{{template ${JSON.stringify(name)} .}}`;
      emit = new Compiler('include', text, all).compileSet(
        new Parser('include', text, has).parse().root,
        defines,
      );
      byDefine.set(name, emit);
    }
    return run(emit, dot);
  };
  return { execute: runner, defined: [...defines.keys()] };
}
