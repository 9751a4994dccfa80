import type {
  ArgNode,
  BranchNode,
  CommandNode,
  ListNode,
  Node,
  NumberNode,
  PipeNode,
  TemplateNode,
  VariableNode,
} from './ast';
import { nodeString } from './ast';
import { TEMPLATE_MAX_NESTING } from './budget';
import { TemplateError } from './errors';
import { goQuote } from './go-fmt';
import { lex, type Token } from './lexer';
import { goParseFloat as parseGoFloat, strconvParseIntBase0 as parseGoInt } from '@logsvc/gocompat';
import { unquote, unquoteRune } from './literals';

/** A parsed template set: the main tree plus `define`/`block` trees by name. */
export interface ParsedTemplates {
  root: ListNode;
  defines: Map<string, ListNode>;
}

type EndMarker = { kind: 'end' | 'else'; pos: number };

/** Go's item.String() for error messages. */
function itemString(t: Token): string {
  if (t.type === 'eof') return 'EOF';
  if (t.type === 'error') return t.val;
  if (t.type === 'keyword' || t.type === 'dot' || t.type === 'nil') return `<${t.val}>`;
  const chars = [...t.val];
  if (chars.length > 10) return JSON.stringify(chars.slice(0, 10).join('')) + '...';
  return JSON.stringify(t.val);
}

/** Parser for Go text/template, after Go's text/template/parse (messages included). */
export class Parser {
  private readonly tokens: Token[];
  private i = 0;
  private vars: string[] = ['$'];
  private rangeDepth = 0;
  private nesting = 0;
  private actionLine = 0;
  private lastLine = 1;
  readonly defines = new Map<string, ListNode>();

  constructor(
    private readonly name: string,
    text: string,
    private readonly hasFunction: (name: string) => boolean,
  ) {
    this.tokens = lex(text);
  }

  parse(): ParsedTemplates {
    const root: ListNode = { kind: 'list', pos: 0, nodes: [] };
    while (this.peek().type !== 'eof') {
      if (this.peek().type === 'leftDelim') {
        const save = this.i;
        this.next();
        const t = this.nextNonSpace();
        if (t.type === 'keyword' && t.val === 'define') {
          this.parseDefinition();
          continue;
        }
        this.i = save;
      }
      const n = this.textOrAction();
      if (n.kind === 'end' || n.kind === 'else') this.errorf(`unexpected {{${n.kind}}}`);
      else if (n.kind !== 'comment') root.nodes.push(n as Node);
    }
    return { root, defines: this.defines };
  }

  private errorf(msg: string): never {
    throw new TemplateError(`template: ${this.name}:${this.lastLine}: ${msg}`);
  }

  private next(): Token {
    // Past the end, the last token (eof or error) repeats.
    const t = this.tokens[Math.min(this.i, this.tokens.length - 1)];
    this.i++;
    this.lastLine = t.line;
    return t;
  }
  private peek(): Token {
    return this.tokens[Math.min(this.i, this.tokens.length - 1)];
  }
  private backup(n = 1): void {
    this.i -= n;
  }
  private nextNonSpace(): Token {
    let t: Token;
    do t = this.next();
    while (t.type === 'space');
    return t;
  }
  private peekNonSpace(): Token {
    const t = this.nextNonSpace();
    this.backup();
    return t;
  }

  private unexpected(t: Token, context: string): never {
    if (t.type === 'error') {
      let extra = '';
      if (this.actionLine !== 0 && this.actionLine !== t.line) {
        extra = ` in action started at ${this.name}:${this.actionLine}`;
        if (t.val.endsWith(' action')) extra = extra.slice(' in action'.length);
      }
      this.errorf(t.val + extra);
    }
    this.errorf(`unexpected ${itemString(t)} in ${context}`);
  }

  private expect(type: Token['type'], context: string, val?: string): Token {
    const t = this.nextNonSpace();
    if (t.type !== type || (val !== undefined && t.val !== val)) this.unexpected(t, context);
    return t;
  }

  private parseDefinition(): void {
    const context = 'define clause';
    const t = this.nextNonSpace();
    if (t.type !== 'string' && t.type !== 'rawString') this.unexpected(t, context);
    const name = unquote(t.val);
    if (name === undefined) this.errorf('invalid syntax');
    this.expect('rightDelim', context);
    const savedVars = this.vars;
    this.vars = ['$'];
    const [list, end] = this.itemList();
    this.vars = savedVars;
    if (end.kind !== 'end') this.errorf(`unexpected {{${end.kind}}} in ${context}`);
    this.addDefinition(name, list);
  }

  private addDefinition(name: string, list: ListNode): void {
    const existing = this.defines.get(name);
    if (existing && existing.nodes.length > 0 && list.nodes.length > 0) {
      this.errorf(`template: multiple definition of template "${name}"`);
    }
    if (!existing || list.nodes.length > 0) this.defines.set(name, list);
  }

  private itemList(): [ListNode, EndMarker] {
    const list: ListNode = { kind: 'list', pos: this.peekNonSpace().pos, nodes: [] };
    while (this.peekNonSpace().type !== 'eof') {
      const n = this.textOrAction();
      if (n.kind === 'end' || n.kind === 'else') return [list, n as EndMarker];
      if (n.kind !== 'comment') list.nodes.push(n as Node);
    }
    this.errorf('unexpected EOF');
  }

  private textOrAction(): Node | EndMarker | { kind: 'comment' } {
    const t = this.nextNonSpace();
    switch (t.type) {
      case 'text':
        return { kind: 'text', pos: t.pos, text: t.val };
      case 'leftDelim': {
        this.actionLine = t.line;
        try {
          return this.action();
        } finally {
          this.actionLine = 0;
        }
      }
      case 'comment':
        return { kind: 'comment' };
      default:
        this.unexpected(t, 'input');
    }
  }

  private action(): Node | EndMarker {
    const t = this.nextNonSpace();
    if (t.type === 'keyword') {
      switch (t.val) {
        case 'block':
          return this.blockControl();
        case 'break':
        case 'continue': {
          const n = this.nextNonSpace();
          if (n.type !== 'rightDelim') this.unexpected(n, `{{${t.val}}}`);
          if (this.rangeDepth === 0) this.errorf(`{{${t.val}}} outside {{range}}`);
          return { kind: t.val, pos: t.pos };
        }
        case 'else': {
          const p = this.peekNonSpace();
          if (p.type === 'keyword' && (p.val === 'if' || p.val === 'with'))
            return { kind: 'else', pos: p.pos };
          const d = this.expect('rightDelim', 'else');
          return { kind: 'else', pos: d.pos };
        }
        case 'end':
          return { kind: 'end', pos: this.expect('rightDelim', 'end').pos };
        case 'if':
        case 'range':
        case 'with':
          return this.control(t.val);
        case 'template':
          return this.templateControl();
      }
    }
    this.backup();
    const pos = this.peekNonSpace().pos;
    return { kind: 'action', pos, pipe: this.pipeline('command', 'rightDelim') };
  }

  /** Counts a nesting level (`(`, `if`, `range`, `with`); Go's "max expression depth". */
  private nest<T>(inner: () => T): T {
    if (++this.nesting > TEMPLATE_MAX_NESTING) this.errorf('max expression depth exceeded');
    try {
      return inner();
    } finally {
      this.nesting--;
    }
  }

  private control(context: 'if' | 'range' | 'with'): BranchNode {
    return this.nest(() => this.controlBody(context));
  }

  private controlBody(context: 'if' | 'range' | 'with'): BranchNode {
    const mark = this.vars.length;
    try {
      const pipe = this.pipeline(context, 'rightDelim');
      if (context === 'range') this.rangeDepth++;
      const [list, next] = this.itemList();
      if (context === 'range') this.rangeDepth--;
      let elseList: ListNode | undefined;
      if (next.kind === 'else') {
        const p = this.peek();
        if ((context === 'if' || context === 'with') && p.type === 'keyword' && p.val === context) {
          this.next();
          elseList = { kind: 'list', pos: next.pos, nodes: [this.control(context)] };
        } else {
          const [l, end] = this.itemList();
          if (end.kind !== 'end') this.errorf(`expected end; found {{${end.kind}}}`);
          elseList = l;
        }
      }
      return { kind: context, pos: pipe.pos, pipe, list, elseList };
    } finally {
      this.vars.length = mark;
    }
  }

  private templateName(t: Token, context: string): string {
    if (t.type !== 'string' && t.type !== 'rawString') this.unexpected(t, context);
    const s = unquote(t.val);
    if (s === undefined) this.errorf('invalid syntax');
    return s;
  }

  private templateControl(): TemplateNode {
    const context = 'template clause';
    const t = this.nextNonSpace();
    const name = this.templateName(t, context);
    let pipe: PipeNode | undefined;
    if (this.nextNonSpace().type !== 'rightDelim') {
      this.backup();
      pipe = this.pipeline(context, 'rightDelim');
    }
    return { kind: 'template', pos: t.pos, name, pipe };
  }

  private blockControl(): TemplateNode {
    const context = 'block clause';
    const t = this.nextNonSpace();
    const name = this.templateName(t, context);
    const pipe = this.pipeline(context, 'rightDelim');
    const savedVars = this.vars;
    const savedDepth = this.rangeDepth;
    this.vars = ['$'];
    this.rangeDepth = 0;
    const [list, end] = this.itemList();
    this.vars = savedVars;
    this.rangeDepth = savedDepth;
    if (end.kind !== 'end') this.errorf(`unexpected {{${end.kind}}} in ${context}`);
    this.addDefinition(name, list);
    return { kind: 'template', pos: t.pos, name, pipe };
  }

  private pipeline(context: string, end: 'rightDelim' | 'rightParen'): PipeNode {
    const pipe: PipeNode = {
      kind: 'pipe',
      pos: this.peekNonSpace().pos,
      isAssign: false,
      decl: [],
      cmds: [],
    };
    for (;;) {
      const v = this.peekNonSpace();
      if (v.type !== 'variable') break;
      const save = this.i;
      this.nextNonSpace();
      const nx = this.peekNonSpace();
      if (nx.type === 'assign' || nx.type === 'declare') {
        pipe.isAssign = nx.type === 'assign';
        this.nextNonSpace();
        pipe.decl.push({ kind: 'variable', pos: v.pos, ident: [v.val] });
        this.vars.push(v.val);
        break;
      }
      if (nx.type === 'char' && nx.val === ',') {
        this.nextNonSpace();
        pipe.decl.push({ kind: 'variable', pos: v.pos, ident: [v.val] });
        this.vars.push(v.val);
        if (context === 'range' && pipe.decl.length < 2) {
          const p = this.peekNonSpace();
          if (p.type === 'variable' || p.type === 'rightDelim' || p.type === 'rightParen') continue;
          this.errorf('range can only initialize variables');
        }
        this.errorf(`too many declarations in ${context}`);
      }
      this.i = save;
      break;
    }
    for (;;) {
      const t = this.nextNonSpace();
      if (t.type === end) {
        if (pipe.cmds.length === 0) this.errorf(`missing value for ${context}`);
        for (let k = 1; k < pipe.cmds.length; k++) {
          const first = pipe.cmds[k].args[0].kind;
          if (
            first === 'bool' ||
            first === 'dot' ||
            first === 'nil' ||
            first === 'number' ||
            first === 'string'
          ) {
            this.errorf(`non executable command in pipeline stage ${k + 1}`);
          }
        }
        return pipe;
      }
      switch (t.type) {
        case 'bool':
        case 'charConstant':
        case 'dot':
        case 'field':
        case 'identifier':
        case 'number':
        case 'nil':
        case 'rawString':
        case 'string':
        case 'variable':
        case 'leftParen':
          this.backup();
          pipe.cmds.push(this.command());
          break;
        default:
          this.unexpected(t, context);
      }
    }
  }

  private command(): CommandNode {
    const cmd: CommandNode = { kind: 'command', pos: this.peekNonSpace().pos, args: [] };
    for (;;) {
      this.peekNonSpace();
      const op = this.operand();
      if (op) cmd.args.push(op);
      const t = this.next();
      if (t.type === 'space') continue;
      if (t.type === 'rightDelim' || t.type === 'rightParen') this.backup();
      else if (t.type !== 'pipe') this.unexpected(t, 'operand');
      break;
    }
    if (cmd.args.length === 0) this.errorf('empty command');
    return cmd;
  }

  private operand(): ArgNode | undefined {
    const node = this.term();
    if (!node) return undefined;
    if (this.peek().type !== 'field') return node;
    const pos = this.peek().pos;
    const fields: string[] = [];
    while (this.peek().type === 'field') fields.push(this.next().val.slice(1));
    switch (node.kind) {
      case 'field':
        return { kind: 'field', pos, ident: [...node.ident, ...fields] };
      case 'variable':
        return { kind: 'variable', pos, ident: [...node.ident, ...fields] };
      case 'bool':
      case 'string':
      case 'number':
      case 'nil':
      case 'dot':
        this.errorf(`unexpected . after term ${goQuote(nodeString(node))}`);
      // falls through (errorf never returns)
      default:
        return { kind: 'chain', pos, node, fields };
    }
  }

  private term(): ArgNode | undefined {
    const t = this.nextNonSpace();
    switch (t.type) {
      case 'identifier':
        if (!this.hasFunction(t.val)) this.errorf(`function "${t.val}" not defined`);
        return { kind: 'identifier', pos: t.pos, name: t.val };
      case 'dot':
        return { kind: 'dot', pos: t.pos };
      case 'nil':
        return { kind: 'nil', pos: t.pos };
      case 'variable':
        return this.useVar(t);
      case 'field':
        return { kind: 'field', pos: t.pos, ident: [t.val.slice(1)] };
      case 'bool':
        return { kind: 'bool', pos: t.pos, val: t.val === 'true' };
      case 'charConstant':
      case 'number':
        return this.number(t);
      case 'leftParen':
        return this.nest(() => this.pipeline('parenthesized pipeline', 'rightParen'));
      case 'string':
      case 'rawString': {
        const s = unquote(t.val);
        if (s === undefined) this.errorf('invalid syntax');
        return { kind: 'string', pos: t.pos, quoted: t.val, text: s };
      }
    }
    this.backup();
    return undefined;
  }

  private useVar(t: Token): VariableNode {
    const ident = t.val.split('.');
    if (!this.vars.includes(ident[0])) this.errorf(`undefined variable "${ident[0]}"`);
    return { kind: 'variable', pos: t.pos, ident };
  }

  private number(t: Token): NumberNode {
    const n: NumberNode = {
      kind: 'number',
      pos: t.pos,
      text: t.val,
      isInt: false,
      isUint: false,
      isFloat: false,
      int: 0n,
      float: 0,
    };
    if (t.type === 'charConstant') {
      const r = unquoteRune(t.val);
      if (r === undefined) this.errorf(`malformed character constant: ${t.val}`);
      return { ...n, isInt: true, isUint: true, isFloat: true, int: BigInt(r), float: r };
    }
    if (t.val.endsWith('i')) this.errorf(`complex numbers are not supported: "${t.val}"`);
    const u = parseGoInt(t.val, true);
    if (u !== undefined) n.isUint = true;
    const i = parseGoInt(t.val, false);
    if (i !== undefined) {
      n.isInt = true;
      n.int = i;
    }
    if (n.isInt) {
      n.isFloat = true;
      n.float = Number(n.int);
    } else if (n.isUint) {
      n.isFloat = true;
      n.float = Number(u);
    } else {
      const f = parseGoFloat(t.val);
      if (f !== undefined) {
        if (!/[.eEpP]/.test(t.val)) this.errorf(`integer overflow: "${t.val}"`);
        n.isFloat = true;
        n.float = f;
        if (Number.isInteger(f) && Math.abs(f) < 2 ** 63) {
          n.isInt = true;
          n.int = BigInt(f);
        }
      }
    }
    if (!n.isInt && !n.isUint && !n.isFloat) this.errorf(`illegal number syntax: "${t.val}"`);
    return n;
  }
}
