/**
 * `| json` without parameters: every string, number and boolean leaf of the line's JSON object
 * becomes a label; nested objects are flattened with `_`; arrays and nulls are skipped.
 * Malformed JSON sets `__error__=JSONParserErr` with jsonparser's message as details.
 *
 * The line is walked in place; key names are cached in a per-stage tree keyed by raw key
 * bytes, so steady-state parsing only builds strings for values.
 */
import { fnv1a, sameBytes } from './byte-keys';
import { ERR_JSON } from './errors';
import { JsonMembers, stringFlags } from './json-members';
import { JsonType, bytesToString, lokiJsonString } from './json-scanner';
import { LabelCategory, type LabelsBuilder } from './labels-builder';
import type { ParserHints } from './parser-hints';
import type { Stage } from './pipeline';
import { sanitizeLabelKey } from './sanitize';

/** Deeper objects are not descended into (keeps the scan bounded and the stack safe). */
export const MAX_JSON_DEPTH = 128;
const MAX_CACHED_KEYS = 1024;

interface KeyNode {
  /** Sanitized path of this key, before the `_extracted` check. */
  readonly path: string;
  /** The raw key bytes (for unescaped keys), to confirm a hash hit. */
  readonly raw: Buffer | null;
  /** Children by hash of their raw key bytes (a short list per hash). */
  readonly children: Map<number, KeyNode[]>;
  /** Children whose keys had escapes, by decoded key. */
  readonly escaped: Map<string, KeyNode>;
  size: number;
  /** Whether a required label can be found under this object, for `descendFor`'s hints. */
  descend: boolean;
  descendFor: ParserHints | null;
}

const INVALID_CHAR = /[^a-zA-Z0-9_]/gu;

/** Sanitizes a nested key part as Loki's `appendSanitized`: one `_` per invalid character. */
function appendSanitized(prefix: string, key: string): string {
  const k = key.trim();
  if (k.length === 0) return prefix;
  const mapped = k.replace(INVALID_CHAR, '_');
  if (prefix.length === 0 && k.charCodeAt(0) >= 0x30 && k.charCodeAt(0) <= 0x39)
    return '_' + mapped;
  return prefix + mapped;
}

/** Decodes a leaf value at `b[start, end)` (strings without their quotes) as Loki does. */
export function jsonLeafText(b: Buffer, type: JsonType, start: number, end: number): string | null {
  switch (type) {
    case JsonType.String: {
      const flags = stringFlags(b, start, end);
      return lokiJsonString(b, start, end, (flags & 1) !== 0, (flags & 2) !== 0);
    }
    case JsonType.Number:
      return bytesToString(b, start, end, (stringFlags(b, start, end) & 2) === 0);
    case JsonType.Boolean:
      return b[start] === 0x74 ? 'true' : 'false';
    default:
      return null;
  }
}

export class JsonParserStage implements Stage {
  private readonly root: KeyNode = newNode('', null);
  /** One reader per nesting depth, made as deeper objects are met. */
  private readonly readers: JsonMembers[] = [];
  private lbs!: LabelsBuilder;
  /** Set once every label the parser hints require is extracted: the rest is not read. */
  private done = false;

  process(_ts: bigint, line: Buffer, lbs: LabelsBuilder): Buffer {
    if (lbs.skipParsers()) return line;
    this.lbs = lbs;
    this.done = false;
    const error = this.walk(line, 0, line.length, this.root, 0);
    if (error !== null) lbs.setParserErr(ERR_JSON, error);
    return line;
  }

  /**
   * Extracts the members of the object at `b[start, end)` and of the objects in it; returns
   * the message of the error that ended the walk, or null. Labels extracted before an error
   * stay, as with jsonparser's callbacks.
   */
  private walk(
    b: Buffer,
    start: number,
    end: number,
    parent: KeyNode,
    depth: number,
  ): string | null {
    let r = this.readers[depth];
    if (r === undefined) {
      r = new JsonMembers();
      this.readers[depth] = r;
    }
    if (!r.open(b, start, end)) return r.error;
    const lbs = this.lbs;
    const hints = lbs.hints;
    const prefixLength = parent.path.length;
    while (r.nextKey()) {
      if (!r.readValue()) return r.error;
      const type = r.type;
      if (type === JsonType.Array || type === JsonType.Null) continue;
      const decoded = r.decodedKey;
      if (
        type !== JsonType.Object &&
        decoded === null &&
        !hints.mayWantKey(b, r.keyStart, r.keyEnd, prefixLength)
      ) {
        continue;
      }
      const node = this.child(b, r.keyStart, r.keyEnd, decoded, parent);
      if (type === JsonType.Object) {
        if (depth + 1 < MAX_JSON_DEPTH && this.shouldDescend(node, hints)) {
          const error = this.walk(b, r.valueStart, r.valueEnd, node, depth + 1);
          if (error !== null) return error;
        }
        if (this.stop()) return null;
        continue;
      }
      let name = node.path;
      if (name.length === 0) continue;
      name = lbs.extractedName(name);
      if (!lbs.wants(name) || !lbs.shouldExtract(name)) continue;
      const value = jsonLeafText(b, r.type, r.valueStart, r.valueEnd);
      if (value !== null) lbs.set(LabelCategory.Parsed, name, value);
      if (this.stop()) return null;
    }
    return r.error;
  }

  /** Loki stops reading the line once the hints' labels are all extracted (`errFoundAllLabels`). */
  private stop(): boolean {
    if (!this.done && this.lbs.allRequiredExtracted()) this.done = true;
    return this.done;
  }

  private shouldDescend(node: KeyNode, hints: ParserHints): boolean {
    if (hints.required === null) return true;
    if (node.descendFor !== hints) {
      node.descend = node.path === '' || hints.wantsPrefix(node.path + '_');
      node.descendFor = hints;
    }
    return node.descend;
  }

  private child(
    b: Buffer,
    ks: number,
    ke: number,
    decoded: string | null,
    parent: KeyNode,
  ): KeyNode {
    if (decoded !== null) {
      let node = parent.escaped.get(decoded);
      if (node === undefined) {
        node = newNode(this.pathOf(parent, decoded), null);
        if (parent.size++ < MAX_CACHED_KEYS) parent.escaped.set(decoded, node);
      }
      return node;
    }
    const hash = fnv1a(b, ks, ke);
    const bucket = parent.children.get(hash);
    if (bucket !== undefined) {
      for (const node of bucket) if (sameBytes(node.raw as Buffer, b, ks, ke)) return node;
    }
    const node = newNode(
      this.pathOf(parent, b.toString('utf8', ks, ke)),
      Buffer.from(b.subarray(ks, ke)),
    );
    if (parent.size++ < MAX_CACHED_KEYS) {
      if (bucket === undefined) parent.children.set(hash, [node]);
      else bucket.push(node);
    }
    return node;
  }

  private pathOf(parent: KeyNode, key: string): string {
    return parent.path === ''
      ? sanitizeLabelKey(key, true)
      : appendSanitized(parent.path + '_', key);
  }
}

function newNode(path: string, raw: Buffer | null): KeyNode {
  return {
    path,
    raw,
    children: new Map(),
    escaped: new Map(),
    size: 0,
    descend: true,
    descendFor: null,
  };
}
