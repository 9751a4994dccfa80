/**
 * A direct route for the commonest metric query over JSON lines:
 *
 *   sum by (level) (count_over_time({…} |= "x" | json | latency_ms > 500 [5m]))
 *
 * that is line filters, `| json` without parameters, then label filters, counting lines or bytes
 * under a `by` grouping. Parser hints say which top-level keys matter; this route finds them in
 * place, judges the label filters on their raw values (plain decimals without making a string)
 * and finds the sample's grouped labels by the raw bytes of the grouped value, with no
 * `LabelsBuilder` and no per-line label set.
 *
 * It decides a line only when the pipeline would decide it the same way; otherwise it says
 * `UNDECIDED` and the caller runs the pipeline: an escaped or sanitized key that may name a
 * wanted label, an object whose keys may flatten into one, structured metadata naming a wanted
 * label or an error, a kept line with a parse error (its sample carries every label), a value a
 * filter cannot convert (the filter then sets an error).
 */
import type { Labels, LabelPair } from '@logsvc/api';
import { fnv1a, sameBytes } from './byte-keys';
import { DUPLICATE_SUFFIX, ERROR_DETAILS_LABEL, ERROR_LABEL } from './errors';
import { jsonLeafText, JsonParserStage } from './json-parser';
import { JsonMembers } from './json-members';
import { JsonType } from './json-scanner';
import {
  BinaryLabelFilter,
  ConvertingLabelFilter,
  LabelFilterStage,
  NumericLabelFilter,
  StringLabelFilter,
  compareNumbers,
  type LabelFilter,
} from './label-filter';
import {
  EMPTY_LABELS_RESULT,
  LabelsResult,
  labelsKey,
  normalizeMetadataName,
  type LabelGrouping,
} from './labels-builder';
import { LineFilterStage, type LineFilter } from './line-filter';
import type { ParserHints } from './parser-hints';
import type { Stage } from './pipeline';
import { sanitizeLabelKey } from './sanitize';

/** What the route answers for a line it cannot decide exactly. */
export const UNDECIDED = Symbol('undecided');

const enum Verdict {
  Drop,
  Keep,
  Undecided,
}

/** The wanted values of one line, as the filters read them. */
interface LineValues {
  has(i: number): boolean;
  text(i: number): string | undefined;
  /** The value as a plain decimal number (see `plainDecimal`), or NaN. */
  decimal(i: number): number;
}

type ValueTest = (v: LineValues) => Verdict;

/** A label filter judged on wanted values alone, or null when it reads anything else. */
function valueTest(filter: LabelFilter, indexOf: (name: string) => number): ValueTest | null {
  if (filter instanceof BinaryLabelFilter) {
    const left = valueTest(filter.left, indexOf);
    const right = valueTest(filter.right, indexOf);
    if (left === null || right === null) return null;
    // `matches` judges the right side only when the left one does not settle it.
    const settles = filter.and ? Verdict.Drop : Verdict.Keep;
    return (v) => {
      const l = left(v);
      return l === settles || l === Verdict.Undecided ? l : right(v);
    };
  }
  if (filter instanceof StringLabelFilter) {
    if (filter.name === ERROR_LABEL || filter.name === ERROR_DETAILS_LABEL) return null;
    const i = indexOf(filter.name);
    if (i < 0) return null;
    return (v) => (filter.judge(v.text(i)) ? Verdict.Keep : Verdict.Drop);
  }
  if (filter instanceof ConvertingLabelFilter) {
    const i = indexOf(filter.name);
    if (i < 0) return null;
    const plainNumbers = filter instanceof NumericLabelFilter;
    const { op, value } = filter;
    return (v) => {
      if (!v.has(i)) return Verdict.Drop;
      if (plainNumbers) {
        const n = v.decimal(i);
        if (n === n) return compareNumbers(op, n, value) ? Verdict.Keep : Verdict.Drop;
      }
      const verdict = filter.judge(v.text(i));
      return verdict === null ? Verdict.Undecided : verdict ? Verdict.Keep : Verdict.Drop;
    };
  }
  return null;
}

/** Exact powers of ten: an integer below 2^53 divided by one of them is correctly rounded. */
const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * `-?[0-9]+(\.[0-9]+)?` with at most 15 digits at `b[start, end)` as the number Go's
 * `ParseFloat` reads (an integer below 2^53 over an exact power of ten is correctly rounded),
 * else NaN.
 */
function plainDecimal(b: Buffer, start: number, end: number): number {
  let i = start;
  const negative = b[i] === 0x2d;
  if (negative) i++;
  if (end - i < 1 || end - i > 16) return NaN;
  let n = 0;
  let digits = 0;
  let point = -1;
  for (; i < end; i++) {
    const c = b[i];
    if (c === 0x2e && point < 0 && digits > 0) {
      point = digits;
      continue;
    }
    const d = c - 0x30;
    if (d < 0 || d > 9) return NaN;
    n = n * 10 + d;
    digits++;
  }
  if (digits > 15 || point === digits) return NaN;
  const value = point < 0 ? n : n / POW10[digits - point];
  return negative ? -value : value;
}

const PLAIN_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** The query-wide part of the route: which keys matter, the filter, the grouping. */
export class JsonFieldsExtraction {
  private constructor(
    private readonly lineFilters: readonly LineFilter[],
    /** The wanted labels, in a fixed order (`names[i]` is value `i`). */
    readonly names: readonly string[],
    readonly nameBytes: readonly Buffer[],
    readonly test: ValueTest | null,
    readonly grouping: LabelGrouping,
    readonly hints: ParserHints,
  ) {
    this.groupIndices = grouping.names.map((n) => names.indexOf(n));
  }

  /** The value index of each grouped name (`grouping.names[k]` is value `groupIndices[k]`). */
  readonly groupIndices: readonly number[];

  /**
   * The route for these stages, or null when they are not line filters, `| json` and label
   * filters on wanted labels, or the hints, grouping or error handling need the pipeline.
   */
  static create(
    stages: readonly Stage[],
    grouping: LabelGrouping,
    hints: ParserHints,
    preserveParserErrors: boolean,
  ): JsonFieldsExtraction | null {
    const required = hints.required;
    if (required === null || required.size === 0 || hints.noLabels || preserveParserErrors) {
      return null;
    }
    if (grouping.without || (!grouping.noLabels && grouping.names.length === 0)) return null;
    const names = [...required];
    if (names.some((n) => !PLAIN_NAME.test(n) || n.endsWith(DUPLICATE_SUFFIX))) return null;
    if (names.some((n) => n === ERROR_LABEL || n === ERROR_DETAILS_LABEL)) return null;
    if (!grouping.noLabels && grouping.names.some((n) => !required.has(n))) return null;
    let at = 0;
    const lineFilters: LineFilter[] = [];
    for (; at < stages.length && stages[at] instanceof LineFilterStage; at++) {
      lineFilters.push((stages[at] as LineFilterStage).filter);
    }
    if (!(stages[at] instanceof JsonParserStage)) return null;
    const indexOf = (name: string): number => names.indexOf(name);
    const tests: ValueTest[] = [];
    for (at++; at < stages.length; at++) {
      const stage = stages[at];
      if (!(stage instanceof LabelFilterStage)) return null;
      const test = valueTest(stage.filter, indexOf);
      if (test === null) return null;
      tests.push(test);
    }
    const nameBytes = names.map((n) => Buffer.from(n, 'latin1'));
    return new JsonFieldsExtraction(lineFilters, names, nameBytes, allOf(tests), grouping, hints);
  }

  /** Whether the route starts with line filters (they read a line view). */
  get hasLineFilters(): boolean {
    return this.lineFilters.length > 0;
  }

  passesLineFilters(line: Buffer): boolean {
    const filters = this.lineFilters;
    for (let i = 0; i < filters.length; i++) if (!filters[i].matches(line)) return false;
    return true;
  }

  forStream(labels: Labels): JsonFieldsStream {
    return new JsonFieldsStream(this, labels);
  }
}

/** Sequential label filter stages: the first that drops (or cannot tell) decides. */
function allOf(tests: readonly ValueTest[]): ValueTest | null {
  if (tests.length === 0) return null;
  if (tests.length === 1) return tests[0];
  return (v) => {
    for (let i = 0; i < tests.length; i++) {
      const verdict = tests[i](v);
      if (verdict !== Verdict.Keep) return verdict;
    }
    return Verdict.Keep;
  };
}

interface CachedGroup {
  readonly type: JsonType;
  readonly raw: Buffer;
  readonly result: LabelsResult;
}

/** Grouped results to keep per stream; more distinct values than this start over. */
const MAX_GROUPS = 4096;
const NOT_FOUND = -1;

/** The route over one stream: its labels may hold wanted names (their values then come from it). */
export class JsonFieldsStream implements LineValues {
  private readonly reader = new JsonMembers();
  private readonly count: number;
  /** Per wanted value: the stream's value when a stream label holds the name, else undefined. */
  private readonly streamValues: (string | undefined)[];
  /** Loki stops reading a line once every wanted label is extracted, which a stream label never is. */
  private readonly stopsEarly: boolean;
  private readonly parsedCount: number;
  /** Per wanted value of this line: JsonType + 1 when found (0 when not), and its bytes. */
  private readonly types: Int8Array;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly texts: (string | undefined)[];
  private line: Buffer = Buffer.alloc(0);
  private readonly metadataVerdicts = new Map<string, boolean>();
  private readonly objectVerdicts = new Map<string, boolean>();
  /** Single parsed grouping label: results by the hash of its raw bytes. */
  private readonly groupIndex: number;
  private readonly byRaw = new Map<number, CachedGroup[]>();
  private readonly byText = new Map<string, LabelsResult>();
  private missingGroup: LabelsResult | undefined;
  private rawGroups = 0;

  constructor(
    private readonly plan: JsonFieldsExtraction,
    labels: Labels,
  ) {
    const names = plan.names;
    this.count = names.length;
    const base = new Map(labels.map((p) => [p.name, p.value] as const));
    this.streamValues = names.map((n) => base.get(n));
    this.parsedCount = this.streamValues.filter((v) => v === undefined).length;
    this.stopsEarly = this.parsedCount === this.count;
    this.types = new Int8Array(this.count);
    this.starts = new Int32Array(this.count);
    this.ends = new Int32Array(this.count);
    this.texts = new Array<string | undefined>(this.count).fill(undefined);
    const g = plan.grouping;
    const only = !g.noLabels && g.names.length === 1 ? plan.groupIndices[0] : NOT_FOUND;
    this.groupIndex = only >= 0 && this.streamValues[only] === undefined ? only : NOT_FOUND;
  }

  /**
   * The sample's grouped labels, null when the pipeline would drop the line, or UNDECIDED when
   * only the pipeline can tell.
   */
  run(line: Buffer, metadata: Labels | undefined): LabelsResult | null | typeof UNDECIDED {
    if (!this.plan.passesLineFilters(line)) return null;
    return this.decide(line, 0, line.length, metadata);
  }

  /** `run` on the line `b[start, end)`, read in place. */
  runRange(
    b: Buffer,
    start: number,
    end: number,
    metadata: Labels | undefined,
  ): LabelsResult | null | typeof UNDECIDED {
    if (this.plan.hasLineFilters) return this.run(b.subarray(start, end), metadata);
    return this.decide(b, start, end, metadata);
  }

  private decide(
    b: Buffer,
    start: number,
    end: number,
    metadata: Labels | undefined,
  ): LabelsResult | null | typeof UNDECIDED {
    const plan = this.plan;
    if (metadata !== undefined && metadata.length > 0 && this.metadataMatters(metadata)) {
      return UNDECIDED;
    }
    const walked = this.walk(b, start, end);
    if (walked === UNDECIDED) return UNDECIDED;
    const test = plan.test;
    if (test !== null) {
      const verdict = test(this);
      if (verdict === Verdict.Drop) return null;
      if (verdict === Verdict.Undecided) return UNDECIDED;
    }
    // A kept line with a parse error carries all its labels: the pipeline builds them.
    if (!walked) return UNDECIDED;
    return this.grouped();
  }

  has(i: number): boolean {
    return this.types[i] !== 0 || this.streamValues[i] !== undefined;
  }

  text(i: number): string | undefined {
    const own = this.streamValues[i];
    if (own !== undefined) return own;
    const type = this.types[i];
    if (type === 0) return undefined;
    let text = this.texts[i];
    if (text === undefined) {
      text = jsonLeafText(this.line, type - 1, this.starts[i], this.ends[i]) ?? undefined;
      this.texts[i] = text;
    }
    return text;
  }

  decimal(i: number): number {
    const type = this.types[i] - 1;
    if (
      this.streamValues[i] !== undefined ||
      (type !== JsonType.Number && type !== JsonType.String)
    ) {
      return NaN;
    }
    return plainDecimal(this.line, this.starts[i], this.ends[i]);
  }

  /**
   * Reads the wanted top-level values of the line `b[start, end)` as `| json` would extract
   * them. True when the walk ended cleanly, false on a parse error, UNDECIDED when a key may
   * need the pipeline. Value offsets are into `b`.
   */
  private walk(b: Buffer, start: number, end: number): boolean | typeof UNDECIDED {
    this.line = b;
    const types = this.types;
    const texts = this.texts;
    for (let i = 0; i < types.length; i++) {
      types[i] = 0;
      texts[i] = undefined;
    }
    const r = this.reader;
    if (!r.open(b, start, end)) return false;
    const hints = this.plan.hints;
    let left = this.stopsEarly ? this.parsedCount : -1;
    while (left !== 0 && r.nextKey()) {
      if (!r.readValue()) return false;
      const type = r.type;
      if (type === JsonType.Array || type === JsonType.Null) continue;
      if (r.decodedKey !== null) return UNDECIDED;
      if (type === JsonType.Object) {
        if (this.objectMayHoldWanted(b, r.keyStart, r.keyEnd)) return UNDECIDED;
        continue;
      }
      if (!hints.mayWantKey(b, r.keyStart, r.keyEnd, 0)) continue;
      const i = this.wantedIndex(b, r.keyStart, r.keyEnd);
      if (i === NOT_FOUND) return UNDECIDED;
      // A stream label holds the name: the key goes to `<name>_extracted`, which is not wanted.
      if (this.streamValues[i] !== undefined || types[i] !== 0) continue;
      types[i] = type + 1;
      this.starts[i] = r.valueStart;
      this.ends[i] = r.valueEnd;
      left--;
    }
    return left === 0 || r.error === null;
  }

  /** The wanted name the key is byte for byte, or NOT_FOUND. */
  private wantedIndex(b: Buffer, start: number, end: number): number {
    const bytes = this.plan.nameBytes;
    for (let i = 0; i < bytes.length; i++) if (sameBytes(bytes[i], b, start, end)) return i;
    return NOT_FOUND;
  }

  /** Whether `| json` may flatten a key of this object into a wanted label (`key_inner`). */
  private objectMayHoldWanted(b: Buffer, start: number, end: number): boolean {
    const key = b.toString('utf8', start, end);
    let verdict = this.objectVerdicts.get(key);
    if (verdict === undefined) {
      const path = sanitizeLabelKey(key, true);
      verdict = path === '' || this.plan.hints.wantsPrefix(path + '_');
      if (this.objectVerdicts.size < MAX_GROUPS) this.objectVerdicts.set(key, verdict);
    }
    return verdict;
  }

  /** Whether metadata names a wanted label or an error (the pipeline then decides). */
  private metadataMatters(metadata: Labels): boolean {
    for (let i = 0; i < metadata.length; i++) {
      const raw = metadata[i].name;
      let verdict = this.metadataVerdicts.get(raw);
      if (verdict === undefined) {
        const name = normalizeMetadataName(raw);
        verdict =
          name === ERROR_LABEL || name === ERROR_DETAILS_LABEL || this.plan.names.includes(name);
        if (this.metadataVerdicts.size < MAX_GROUPS) this.metadataVerdicts.set(raw, verdict);
      }
      if (verdict) return true;
    }
    return false;
  }

  /** The kept sample's labels: the grouped names with a value, found by value. */
  private grouped(): LabelsResult {
    const g = this.plan.grouping;
    if (g.noLabels) return EMPTY_LABELS_RESULT;
    if (this.groupIndex !== NOT_FOUND) return this.groupedByRaw(this.groupIndex);
    let key = '';
    const indices = this.plan.groupIndices;
    for (let k = 0; k < indices.length; k++) {
      const v = this.text(indices[k]);
      key += v === undefined ? '-' : `${v.length}:${v}`;
    }
    let result = this.byText.get(key);
    if (result === undefined) {
      const labels: LabelPair[] = [];
      for (let k = 0; k < indices.length; k++) {
        const value = this.text(indices[k]);
        if (value !== undefined) labels.push({ name: g.names[k], value });
      }
      result = newResult(labels);
      if (this.byText.size >= MAX_GROUPS) this.byText.clear();
      this.byText.set(key, result);
    }
    return result;
  }

  private groupedByRaw(i: number): LabelsResult {
    const type = this.types[i] - 1;
    if (type < 0) {
      this.missingGroup ??= newResult([]);
      return this.missingGroup;
    }
    const b = this.line;
    const start = this.starts[i];
    const end = this.ends[i];
    const hash = fnv1a(b, start, end, 0x811c9dc5 ^ type);
    const bucket = this.byRaw.get(hash);
    if (bucket !== undefined) {
      for (const g of bucket)
        if (g.type === type && sameBytes(g.raw, b, start, end)) return g.result;
    }
    const value = this.text(i) as string;
    let result = this.byText.get(value);
    if (result === undefined) {
      result = newResult([{ name: this.plan.names[i], value }]);
      this.byText.set(value, result);
    }
    if (this.rawGroups++ >= MAX_GROUPS) {
      this.byRaw.clear();
      this.byText.clear();
      this.rawGroups = 0;
    }
    const entry = { type, raw: Buffer.from(b.subarray(start, end)), result };
    if (bucket === undefined) this.byRaw.set(hash, [entry]);
    else bucket.push(entry);
    return result;
  }
}

function newResult(labels: Labels): LabelsResult {
  return new LabelsResult(labels, labelsKey(labels), labels, [], []);
}
