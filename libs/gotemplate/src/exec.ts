import {
  nodeString,
  type ArgNode,
  type BranchNode,
  type CommandNode,
  type IdentifierNode,
  type ListNode,
  type Node,
  type NumberNode,
  type PipeNode,
} from './ast';
import {
  checkOutputSize,
  outputBudgetExceeded,
  stepBudgetExceeded,
  TEMPLATE_MAX_CALL_DEPTH,
  TEMPLATE_MAX_OUTPUT_CHARS,
  TEMPLATE_MAX_STEPS,
} from './budget';
import { TemplateError } from './errors';
import type { CallContext, FuncMap, ParamType } from './func-types';
import { formatValue } from './go-fmt';
import { GoTime } from './go-time';
import { methodOf } from './go-time-methods';
import { FuncError, isTrue, LabelMap, SizedInt, typeName, type Value } from './values';

/** Marks "no value from a previous pipeline stage" (Go's missingVal). */
const MISSING = Symbol('missing');
type Final = Value | typeof MISSING;

const BREAK = Symbol('break');
const CONTINUE = Symbol('continue');

interface Var {
  name: string;
  value: Value;
}

/** Mutable state of one execution. */
export class ExecState {
  out = '';
  vars: Var[] = [];
  depth = 0;
  /** Function calls and range iterations so far (see TEMPLATE_MAX_STEPS). */
  steps = 0;
  constructor(readonly ctx: CallContext) {}

  write(text: string): void {
    this.out += text;
    if (this.out.length > TEMPLATE_MAX_OUTPUT_CHARS) throw outputBudgetExceeded();
  }

  step(): void {
    if (++this.steps > TEMPLATE_MAX_STEPS) throw stepBudgetExceeded();
  }
}

type Emit = (s: ExecState, dot: Value) => void;
type Eval = (s: ExecState, dot: Value, final: Final) => Value;
type ArgEval = (s: ExecState, dot: Value) => Value;
/** The evaluator of a method's i-th argument for a parameter of type t. */
type MethodArg = (i: number, t: ParamType) => ArgEval;
const NO_ARGS: MethodArg = () => () => undefined;

interface TreeInfo {
  name: string; // template name shown in `executing "<name>"`
}

/** Go's printValue: an invalid (or nil interface) pipeline result prints `<no value>`. */
function printValue(v: Value): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '<no value>';
  return formatValue(v);
}

/** Turns parse trees into closures; errors are reported with Go's location and context. */
export class Compiler {
  private readonly trees = new Map<string, Emit>();

  constructor(
    private readonly parseName: string,
    private readonly text: string,
    private readonly funcs: FuncMap,
  ) {}

  compileSet(root: ListNode, defines: Map<string, ListNode>): Emit {
    for (const [name, list] of defines) {
      // Placeholder first so recursive templates resolve.
      this.trees.set(name, () => undefined);
      const emit = this.list(list, { name });
      this.trees.set(name, emit);
    }
    return this.list(root, { name: this.parseName });
  }

  /** Go's ErrorContext: `name:line:col` where col is the byte offset in the line. */
  private fail(
    tree: TreeInfo,
    node: { pos: number } & Parameters<typeof nodeString>[0],
    msg: string,
  ): never {
    const before = this.text.slice(0, node.pos);
    const nl = before.lastIndexOf('\n');
    const line = 1 + (before.match(/\n/g)?.length ?? 0);
    const col = Buffer.byteLength(nl < 0 ? before : before.slice(nl + 1));
    throw new TemplateError(
      `template: ${this.parseName}:${line}:${col}: executing "${tree.name}" at <${nodeString(node)}>: ${msg}`,
    );
  }

  private list(list: ListNode, tree: TreeInfo): Emit {
    const parts = list.nodes.map((n) => this.node(n, tree));
    if (parts.length === 1) return parts[0];
    return (s, dot) => {
      for (let i = 0; i < parts.length; i++) parts[i](s, dot);
    };
  }

  private node(n: Node, tree: TreeInfo): Emit {
    switch (n.kind) {
      case 'text': {
        const text = n.text;
        return (s) => s.write(text);
      }
      case 'action':
        return this.action(n.pipe, tree);
      case 'if':
      case 'with':
        return this.ifOrWith(n, tree);
      case 'range':
        return this.range(n, tree);
      case 'list':
        return this.list(n, tree);
      case 'break':
        return () => {
          throw BREAK;
        };
      case 'continue':
        return () => {
          throw CONTINUE;
        };
      case 'template': {
        const pipe = n.pipe ? this.pipeline(n.pipe, tree) : undefined;
        const name = n.name;
        return (s, dot) => {
          const target = this.trees.get(name);
          if (!target) this.fail(tree, n, `template "${name}" not defined`);
          if (s.depth >= TEMPLATE_MAX_CALL_DEPTH)
            this.fail(tree, n, `exceeded maximum template depth (${TEMPLATE_MAX_CALL_DEPTH})`);
          const newDot = pipe ? pipe(s, dot) : undefined;
          const savedVars = s.vars;
          s.vars = [{ name: '$', value: newDot }];
          s.depth++;
          try {
            target(s, newDot);
          } finally {
            s.depth--;
            s.vars = savedVars;
          }
        };
      }
    }
  }

  private action(pipe: PipeNode, tree: TreeInfo): Emit {
    // Fast path: {{.label}} reads the label map directly.
    if (pipe.decl.length === 0 && pipe.cmds.length === 1 && pipe.cmds[0].args.length === 1) {
      const only = pipe.cmds[0].args[0];
      if (only.kind === 'field' && only.ident.length === 1) {
        const key = only.ident[0];
        const slow = this.pipeline(pipe, tree);
        return (s, dot) => {
          s.write(dot instanceof LabelMap ? dot.get(key) : printValue(slow(s, dot)));
        };
      }
    }
    const evalPipe = this.pipeline(pipe, tree);
    if (pipe.decl.length > 0) return (s, dot) => void evalPipe(s, dot);
    return (s, dot) => s.write(printValue(evalPipe(s, dot)));
  }

  private ifOrWith(n: BranchNode, tree: TreeInfo): Emit {
    const pipe = this.pipeline(n.pipe, tree);
    const list = this.list(n.list, tree);
    const elseList = n.elseList ? this.list(n.elseList, tree) : undefined;
    const isWith = n.kind === 'with';
    return (s, dot) => {
      const mark = s.vars.length;
      try {
        const val = pipe(s, dot);
        if (isTrue(val)) list(s, isWith ? val : dot);
        else if (elseList) elseList(s, dot);
      } finally {
        s.vars.length = mark;
      }
    };
  }

  private range(n: BranchNode, tree: TreeInfo): Emit {
    const pipe = this.pipeline(n.pipe, tree);
    const body = this.list(n.list, tree);
    const elseList = n.elseList ? this.list(n.elseList, tree) : undefined;
    const nDecl = n.pipe.decl.length;
    return (s, dot) => {
      const outer = s.vars.length;
      try {
        const val = pipe(s, dot);
        const mark = s.vars.length;
        const one = (index: Value, elem: Value): boolean => {
          s.step();
          if (nDecl > 0) s.vars[mark - 1].value = elem;
          if (nDecl > 1) s.vars[mark - 2].value = index;
          try {
            body(s, elem);
          } catch (e) {
            if (e === BREAK) return false;
            if (e !== CONTINUE) throw e;
          } finally {
            s.vars.length = mark;
          }
          return true;
        };
        let iterated = false;
        if (Array.isArray(val)) {
          iterated = val.length > 0;
          for (let i = 0; i < val.length; i++) if (!one(BigInt(i), val[i] ?? undefined)) break;
        } else if (val instanceof Map || val instanceof LabelMap) {
          const keys = val instanceof LabelMap ? val.keys() : [...val.keys()].sort();
          iterated = keys.length > 0;
          for (const k of keys)
            if (!one(k, val instanceof LabelMap ? val.get(k) : (val.get(k) ?? undefined))) break;
        } else if (typeof val === 'bigint') {
          if (nDecl > 1)
            this.fail(tree, n, `can't use ${val} to iterate over more than one variable`);
          iterated = val > 0n;
          for (let i = 0n; i < val; i++) if (!one(i, i)) break;
        } else if (val !== undefined && val !== null) {
          this.fail(tree, n, `range can't iterate over ${formatValue(val)}`);
        }
        if (!iterated && elseList) elseList(s, dot);
      } finally {
        s.vars.length = outer;
      }
    };
  }

  private pipeline(pipe: PipeNode, tree: TreeInfo): (s: ExecState, dot: Value) => Value {
    const cmds = pipe.cmds.map((c) => this.command(c, tree));
    const decl = pipe.decl.map((d) => d.ident[0]);
    const isAssign = pipe.isAssign;
    const run =
      cmds.length === 1
        ? (s: ExecState, dot: Value): Value => cmds[0](s, dot, MISSING)
        : (s: ExecState, dot: Value): Value => {
            let v: Final = MISSING;
            for (let i = 0; i < cmds.length; i++) v = cmds[i](s, dot, v);
            return v as Value;
          };
    if (decl.length === 0) return (s, dot) => nilToInvalid(run(s, dot));
    return (s, dot) => {
      const v = nilToInvalid(run(s, dot));
      for (const name of decl) {
        if (isAssign) {
          const found = findVar(s, name);
          if (!found) this.fail(tree, pipe, `undefined variable: ${name}`);
          found.value = v;
        } else s.vars.push({ name, value: v });
      }
      return v;
    };
  }

  private notAFunction(tree: TreeInfo, cmd: CommandNode, first: ArgNode, final: Final): void {
    if (cmd.args.length > 1 || final !== MISSING) {
      this.fail(tree, first, `can't give argument to non-function ${nodeString(first)}`);
    }
  }

  private command(cmd: CommandNode, tree: TreeInfo): Eval {
    const first = cmd.args[0];
    const rest = cmd.args.slice(1);
    switch (first.kind) {
      case 'field':
        return this.fieldChain(first.ident, first, rest, tree, (_s, dot) => dot);
      case 'chain': {
        const recv = this.arg(first.node, 'any', tree, true);
        return this.fieldChain(first.fields, first, rest, tree, recv);
      }
      case 'identifier':
        return this.func(first, cmd, rest, tree);
      case 'pipe': {
        const p = this.pipeline(first, tree);
        return (s, dot, final) => {
          this.notAFunction(tree, cmd, first, final);
          return p(s, dot);
        };
      }
      case 'variable': {
        const name = first.ident[0];
        const getVar = (s: ExecState): Value => {
          const v = findVar(s, name);
          if (!v) this.fail(tree, first, `undefined variable: ${name}`);
          return v.value;
        };
        if (first.ident.length === 1) {
          return (s, _dot, final) => {
            const v = getVar(s);
            this.notAFunction(tree, cmd, first, final);
            return v;
          };
        }
        return this.fieldChain(first.ident.slice(1), first, rest, tree, (s) => getVar(s));
      }
    }
    const constant = this.constant(first, tree);
    return (s, dot, final) => {
      this.notAFunction(tree, cmd, first, final);
      return constant(s, dot);
    };
  }

  /** Bool, dot, nil, number and string as a command or empty-interface argument. */
  private constant(n: ArgNode, tree: TreeInfo): ArgEval {
    switch (n.kind) {
      case 'bool': {
        const v = n.val;
        return () => v;
      }
      case 'dot':
        return (_s, dot) => dot;
      case 'nil':
        return () => this.fail(tree, n, 'nil is not a command');
      case 'number': {
        const v = this.idealConstant(n, tree);
        return () => v();
      }
      case 'string': {
        const v = n.text;
        return () => v;
      }
    }
    return () => this.fail(tree, n, `can't evaluate command "${nodeString(n)}"`);
  }

  private idealConstant(n: NumberNode, tree: TreeInfo): () => Value {
    const isHexInt = /^0[xX]/.test(n.text) && !/[pP]/.test(n.text);
    if (n.isFloat && !isHexInt && n.text[0] !== "'" && /[.eEpP]/.test(n.text)) {
      const f = n.float;
      return () => f;
    }
    if (n.isInt) {
      const i = n.int;
      return () => i;
    }
    return () => this.fail(tree, n, `${n.text} overflows int`);
  }

  private fieldChain(
    idents: string[],
    node: ArgNode,
    args: ArgNode[],
    tree: TreeInfo,
    receiver: (s: ExecState, dot: Value) => Value,
  ): Eval {
    // Method arguments convert to the parameter types of the method found at run time.
    const compiled = new Map<string, ArgEval>();
    const methodArg: MethodArg = (i, t) => {
      const key = `${i}:${t}`;
      let ev = compiled.get(key);
      if (!ev) {
        ev = this.arg(args[i], t, tree);
        compiled.set(key, ev);
      }
      return ev;
    };
    const nArgs = args.length;
    return (s, dot, final) => {
      let r = receiver(s, dot);
      const last = idents.length - 1;
      for (let i = 0; i < last; i++)
        r = this.field(tree, node, r, idents[i], NO_ARGS, 0, MISSING, s, dot);
      return this.field(tree, node, r, idents[last], methodArg, nArgs, final, s, dot);
    };
  }

  private field(
    tree: TreeInfo,
    node: ArgNode,
    r: Value,
    name: string,
    arg: MethodArg,
    nArgs: number,
    final: Final,
    s: ExecState,
    dot: Value,
  ): Value {
    const hasArgs = nArgs > 0 || final !== MISSING;
    if (r === undefined || r === null) return undefined;
    if (r instanceof LabelMap || r instanceof Map) {
      if (hasArgs) this.fail(tree, node, `${name} is not a method but has arguments`);
      return r instanceof LabelMap ? r.get(name) : nilToInvalid(r.get(name));
    }
    const m = methodOf(r, name);
    if (m) {
      const numIn = nArgs + (final === MISSING ? 0 : 1);
      if (numIn !== m.params.length) {
        this.fail(
          tree,
          node,
          `wrong number of args for ${name}: want ${m.params.length} got ${numIn}`,
        );
      }
      const argv: Value[] = [];
      for (let i = 0; i < nArgs; i++) argv.push(arg(i, m.params[i])(s, dot));
      if (final !== MISSING) argv.push(this.validate(tree, node, final, m.params[nArgs]));
      return (m.call as (recv: Value, args: Value[]) => Value)(r, argv);
    }
    return this.fail(tree, node, `can't evaluate field ${name} in type ${typeName(r)}`);
  }

  /**
   * A call of the function `ident` names. As in Go, an unknown function or a wrong number of
   * arguments is reported at the identifier (`at <substr>`), other errors at the command.
   */
  private func(
    ident: IdentifierNode,
    cmd: CommandNode | ArgNode,
    args: ArgNode[],
    tree: TreeInfo,
  ): Eval {
    const name = ident.name;
    const fn = this.funcs.get(name);
    if (!fn) return () => this.fail(tree, ident, `"${name}" is not a defined function`);
    const nFixed = fn.params.length;
    const argTypes: ParamType[] = args.map((_a, i) =>
      i < nFixed ? fn.params[i] : (fn.variadic ?? fn.params[nFixed - 1]),
    );
    const argv = args.map((a, i) => this.arg(a, argTypes[i], tree));
    const n = args.length;
    if (fn.shortCircuit) {
      const wantOr = fn.shortCircuit === 'or';
      return (s, dot, final) => {
        if (n + (final === MISSING ? 0 : 1) < 1) {
          this.fail(tree, ident, `wrong number of args for ${name}: want at least 1 got ${n}`);
        }
        let v: Value = undefined;
        for (let i = 0; i < n; i++) {
          v = argv[i](s, dot);
          if (isTrue(v) === wantOr) return v;
        }
        return final === MISSING ? v : nilToInvalid(final);
      };
    }
    return (s, dot, final) => {
      const numIn = n + (final === MISSING ? 0 : 1);
      if (fn.variadic) {
        if (numIn < nFixed)
          this.fail(
            tree,
            ident,
            `wrong number of args for ${name}: want at least ${nFixed} got ${n}`,
          );
      } else if (numIn !== nFixed) {
        this.fail(tree, ident, `wrong number of args for ${name}: want ${nFixed} got ${numIn}`);
      }
      const values: Value[] = new Array(numIn);
      for (let i = 0; i < n; i++) values[i] = argv[i](s, dot);
      if (final !== MISSING) {
        const t = numIn - 1 < nFixed ? fn.params[numIn - 1] : fn.variadic!;
        values[n] = this.validate(tree, cmd, final, t);
      }
      s.step();
      try {
        const result = fn.call(values, s.ctx);
        if (typeof result === 'string') checkOutputSize(result.length);
        return result;
      } catch (e) {
        if (e instanceof FuncError) this.fail(tree, cmd, `error calling ${name}: ${e.message}`);
        throw e;
      }
    };
  }

  /** Go's evalArg: evaluates an argument for a parameter of type `t`. */
  private arg(n: ArgNode, t: ParamType, tree: TreeInfo, untyped = false): ArgEval {
    const check = (ev: ArgEval): ArgEval =>
      untyped ? ev : (s, dot) => this.validate(tree, n, ev(s, dot), t);
    switch (n.kind) {
      case 'dot':
        return check((_s, dot) => dot);
      case 'nil':
        if (untyped) return () => this.fail(tree, n, 'cannot assign nil to <nil>');
        if (t === 'any') return () => null;
        if (t === 'value') return () => undefined;
        return () => this.fail(tree, n, `cannot assign nil to ${goTypeName(t)}`);
      case 'field':
      case 'variable':
      case 'chain': {
        const ev = this.command({ kind: 'command', pos: n.pos, args: [n] }, tree);
        return check((s, dot) => ev(s, dot, MISSING));
      }
      case 'pipe': {
        const p = this.pipeline(n, tree);
        return check((s, dot) => p(s, dot));
      }
      case 'identifier': {
        const f = this.func(n, n, [], tree);
        return check((s, dot) => nilToInvalid(f(s, dot, MISSING)));
      }
    }
    if (untyped || t === 'any' || t === 'value') return this.constant(n, tree);
    const fail =
      (what: string): ArgEval =>
      () =>
        this.fail(tree, n, `expected ${what}; found ${nodeString(n)}`);
    switch (t) {
      case 'string':
        if (n.kind === 'string') {
          const v = n.text;
          return () => v;
        }
        return fail('string');
      case 'int':
        if (n.kind === 'number' && n.isInt) {
          const v = n.int;
          return () => v;
        }
        return fail('integer');
      case 'float64':
        if (n.kind === 'number' && n.isFloat) {
          const v = n.float;
          return () => v;
        }
        return fail('float');
      case 'bool':
        if (n.kind === 'bool') {
          const v = n.val;
          return () => v;
        }
        return fail('bool');
      case 'duration':
        // time.Duration is an int64: integer constants convert to it.
        if (n.kind === 'number' && n.isInt) {
          const v = new SizedInt('time.Duration', n.int);
          return () => v;
        }
        return fail('integer');
    }
    return () =>
      this.fail(tree, n, `can't handle ${nodeString(n)} for arg of type ${goTypeName(t)}`);
  }

  /** Go's validateType for a computed value. */
  private validate(
    tree: TreeInfo,
    node: Parameters<typeof nodeString>[0] & { pos: number },
    v: Value,
    t: ParamType,
  ): Value {
    if (v === undefined || v === null) {
      if (t === 'any') return null;
      if (t === 'value') return undefined;
      return this.fail(tree, node, `invalid value; expected ${goTypeName(t)}`);
    }
    let ok: boolean;
    switch (t) {
      case 'any':
      case 'value':
        return v;
      case 'string':
        ok = typeof v === 'string';
        break;
      case 'int':
        ok = typeof v === 'bigint';
        break;
      case 'float64':
        ok = typeof v === 'number';
        break;
      case 'bool':
        ok = typeof v === 'boolean';
        break;
      case 'time':
        ok = v instanceof GoTime;
        break;
      case 'duration':
        ok = v instanceof SizedInt && v.type === 'time.Duration';
        break;
    }
    if (!ok)
      this.fail(tree, node, `wrong type for value; expected ${goTypeName(t)}; got ${typeName(v)}`);
    return v;
  }
}

function goTypeName(t: ParamType): string {
  if (t === 'duration') return 'time.Duration';
  return t === 'time'
    ? 'time.Time'
    : t === 'any'
      ? 'interface {}'
      : t === 'value'
        ? 'reflect.Value'
        : t;
}

function nilToInvalid(v: Value): Value {
  return v === null ? undefined : v;
}

function findVar(s: ExecState, name: string): Var | undefined {
  for (let i = s.vars.length - 1; i >= 0; i--) if (s.vars[i].name === name) return s.vars[i];
  return undefined;
}
