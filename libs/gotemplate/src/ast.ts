/** Parse tree of a Go text/template, mirroring text/template/parse node kinds. */

export interface FieldNode {
  kind: 'field';
  pos: number;
  ident: string[];
}
export interface VariableNode {
  kind: 'variable';
  pos: number;
  ident: string[]; // ident[0] is "$" or "$name"
}
export interface DotNode {
  kind: 'dot';
  pos: number;
}
export interface NilNode {
  kind: 'nil';
  pos: number;
}
export interface BoolNode {
  kind: 'bool';
  pos: number;
  val: boolean;
}
export interface NumberNode {
  kind: 'number';
  pos: number;
  text: string;
  isInt: boolean;
  isUint: boolean;
  isFloat: boolean;
  int: bigint;
  float: number;
}
export interface StringNode {
  kind: 'string';
  pos: number;
  quoted: string;
  text: string;
}
export interface IdentifierNode {
  kind: 'identifier';
  pos: number;
  name: string;
}
export interface ChainNode {
  kind: 'chain';
  pos: number;
  node: ArgNode;
  fields: string[];
}
export interface PipeNode {
  kind: 'pipe';
  pos: number;
  isAssign: boolean;
  decl: VariableNode[];
  cmds: CommandNode[];
}
export interface CommandNode {
  kind: 'command';
  pos: number;
  args: ArgNode[];
}

export type ArgNode =
  | FieldNode
  | VariableNode
  | DotNode
  | NilNode
  | BoolNode
  | NumberNode
  | StringNode
  | IdentifierNode
  | ChainNode
  | PipeNode;

export interface TextNode {
  kind: 'text';
  pos: number;
  text: string;
}
export interface ActionNode {
  kind: 'action';
  pos: number;
  pipe: PipeNode;
}
export interface BranchNode {
  kind: 'if' | 'with' | 'range';
  pos: number;
  pipe: PipeNode;
  list: ListNode;
  elseList: ListNode | undefined;
}
export interface TemplateNode {
  kind: 'template';
  pos: number;
  name: string;
  pipe: PipeNode | undefined;
}
export interface LoopControlNode {
  kind: 'break' | 'continue';
  pos: number;
}
export interface ListNode {
  kind: 'list';
  pos: number;
  nodes: Node[];
}

export type Node = TextNode | ActionNode | BranchNode | TemplateNode | LoopControlNode | ListNode;

/** Go's Node.String(), used in execution error messages. */
export function nodeString(n: ArgNode | CommandNode | Node): string {
  switch (n.kind) {
    case 'field':
      return '.' + n.ident.join('.');
    case 'variable':
      return n.ident.join('.');
    case 'dot':
      return '.';
    case 'nil':
      return 'nil';
    case 'bool':
      return n.val ? 'true' : 'false';
    case 'number':
      return n.text;
    case 'string':
      return n.quoted;
    case 'identifier':
      return n.name;
    case 'chain': {
      const inner = n.node.kind === 'pipe' ? '(' + nodeString(n.node) + ')' : nodeString(n.node);
      return inner + '.' + n.fields.join('.');
    }
    case 'pipe': {
      let s = '';
      if (n.decl.length > 0) s = n.decl.map(nodeString).join(', ') + (n.isAssign ? ' = ' : ' := ');
      return s + n.cmds.map(nodeString).join(' | ');
    }
    case 'command':
      return n.args
        .map((a) => (a.kind === 'pipe' ? '(' + nodeString(a) + ')' : nodeString(a)))
        .join(' ');
    case 'text':
      return n.text;
    case 'action':
      return '{{' + nodeString(n.pipe) + '}}';
    case 'if':
    case 'with':
    case 'range': {
      let s = '{{' + n.kind + ' ' + nodeString(n.pipe) + '}}' + nodeString(n.list);
      if (n.elseList) s += '{{else}}' + nodeString(n.elseList);
      return s + '{{end}}';
    }
    case 'template':
      return `{{template "${n.name}"${n.pipe ? ' ' + nodeString(n.pipe) : ''}}}`;
    case 'break':
    case 'continue':
      return `{{${n.kind}}}`;
    case 'list':
      return n.nodes.map(nodeString).join('');
  }
}
