/**
 * Per-entry label state of the log pipeline, modelled on Loki's `LabelsBuilder`
 * (`pkg/logql/log/labels.go`). A builder is created once per stream over the stream's labels;
 * each entry resets it, adds its structured metadata, and lets stages read and change labels.
 *
 * Every label has a category (stream, structured metadata, parsed) so that responses can
 * categorize labels later. A name lives in one category at a time, with precedence
 * parsed > structured metadata > stream when a stage sets it (label_format); parsers store a
 * name held by a stream or metadata label as `<name>_extracted` instead (`extractedName`).
 */
import {
  labelsToString,
  type EntryLabelCategories,
  type LabelPair,
  type Labels,
} from '@logsvc/api';
import { DUPLICATE_SUFFIX, ERROR_DETAILS_LABEL, ERROR_LABEL, PRESERVE_ERROR_LABEL } from './errors';
import { NO_PARSER_HINTS, type ParserHints } from './parser-hints';

export enum LabelCategory {
  Stream = 0,
  StructuredMetadata = 1,
  Parsed = 2,
}

/** An immutable, sorted label set produced by a pipeline, with its categories. */
export class LabelsResult {
  private text: string | undefined;
  private rec: Record<string, string> | undefined;

  constructor(
    /** All labels, sorted by name. */
    readonly labels: Labels,
    /** A cheap canonical key: equal label sets have equal keys. */
    readonly key: string,
    readonly stream: Labels,
    readonly structuredMetadata: Labels,
    /** Parsed labels, including `__error__` / `__error_details__` when set (as Loki does). */
    readonly parsed: Labels,
  ) {}

  /** The Prometheus text form `{a="1", b="2"}`, computed once. */
  toString(): string {
    if (this.text === undefined) this.text = labelsToString(this.labels);
    return this.text;
  }

  /** The labels as a plain record (template data), computed once. */
  record(): Readonly<Record<string, string>> {
    if (this.rec === undefined) {
      const out: Record<string, string> = Object.create(null) as Record<string, string>;
      for (const p of this.labels) out[p.name] = p.value;
      this.rec = out;
    }
    return this.rec;
  }

  /**
   * The entry's labels besides the stream's, as `categorize-labels` answers give them (the
   * third element of an entry): empty categories are left out.
   */
  categories(): EntryLabelCategories {
    return entryCategories(this.structuredMetadata, this.parsed);
  }
}

const NO_CATEGORIES: EntryLabelCategories = Object.freeze({});

/** An entry's structured metadata and parsed labels as categories, empty ones left out. */
export function entryCategories(structuredMetadata: Labels, parsed: Labels): EntryLabelCategories {
  if (structuredMetadata.length === 0 && parsed.length === 0) return NO_CATEGORIES;
  return {
    ...(structuredMetadata.length > 0 ? { structuredMetadata } : {}),
    ...(parsed.length > 0 ? { parsed } : {}),
  };
}

/**
 * A canonical key for a sorted label set. Values are length-prefixed, so no value content can
 * make two different sets collide (label names never contain `=`).
 */
export function labelsKey(labels: Labels): string {
  let key = '';
  for (const p of labels) key += p.name + '=' + p.value.length + ':' + p.value;
  return key;
}

const byName = (a: LabelPair, b: LabelPair): number =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

/** The labels of a sample reduced by its extraction's grouping (`LabelsBuilder.groupedLabels`). */
export interface LabelGrouping {
  /** Sorted, distinct. Empty with `without` false and `noLabels` false: no grouping. */
  readonly names: readonly string[];
  readonly without: boolean;
  /** `by ()`: no labels at all (samples with an error keep theirs). */
  readonly noLabels: boolean;
}

export const NO_GROUPING: LabelGrouping = { names: [], without: false, noLabels: false };

export const EMPTY_LABELS_RESULT = new LabelsResult([], '', [], [], []);

/** Most entries of a stream produce few distinct label sets; bound the cache anyway. */
const MAX_CACHED_RESULTS = 4096;
/**
 * Label sets longer than this (in characters of their key) are not cached: 4096 of them
 * could hold gigabytes (`label_format x="{{ __line__ }}{{ repeat 500000 \"y\" }}"` makes each
 * line's set distinct and half a megabyte), and such sets rarely repeat.
 */
const MAX_CACHED_KEY_CHARS = 16 * 1024;

/** Prometheus `NormalizeLabel` (otlptranslator), which Loki applies to metadata names. */
export function normalizeMetadataName(name: string): string {
  if (name.length === 0) return name;
  const out = /[^\p{L}\p{Nd}_]/u.test(name) ? name.replace(/[^\p{L}\p{Nd}]/gu, '_') : name;
  if (/^\p{Nd}/u.test(out)) return 'key_' + out;
  if (out.startsWith('_') && !out.startsWith('__')) return 'key' + out;
  return out;
}

export class LabelsBuilder {
  private readonly baseMap = new Map<string, string>();
  private readonly names: string[][] = [[], [], []];
  private readonly values: string[][] = [[], [], []];
  private readonly deleted: string[] = [];
  private changed = false;
  private err = '';
  private errDetails = '';
  private readonly baseResult: LabelsResult;
  private readonly cache = new Map<string, LabelsResult>();
  /** Results by the entry's changes to the base: most entries of a stream repeat a few. */
  private readonly byDelta = new Map<string, LabelsResult>();
  private readonly normalizedNames = new Map<string, string>();
  private readonly extractedNames = new Map<string, string>();
  /**
   * Loki's parser hint `PreserveError`: set when a metric query groups by or filters on
   * `__error__`; parser errors then also set `__preserve_error__="true"`, which lets the
   * sample through the pipeline-error check.
   */
  preserveParserErrors = false;
  private parserHints: ParserHints = NO_PARSER_HINTS;
  private nothingWanted: boolean | undefined;
  /** Required labels (of `hints`) set on this entry, in the order they were set. */
  private readonly requiredSet: string[] = [];
  /** The extraction's grouping, read by `groupedLabels`. */
  grouping: LabelGrouping = NO_GROUPING;
  private baseGrouped: LabelsResult | undefined;
  private readonly byGroupValues = new Map<string, LabelsResult>();
  /** `byOneResult`'s caches: by value, for a missing label, and the last answer. */
  private readonly byOneValue = new Map<string, LabelsResult>();
  private byOneMissing: LabelsResult | undefined;
  private lastOneValue: string | undefined;
  private lastOneResult: LabelsResult | undefined;
  private readonly withoutCache = new WeakMap<LabelsResult, LabelsResult>();

  constructor(readonly base: Labels) {
    for (const p of base) this.baseMap.set(p.name, p.value);
    this.baseResult = new LabelsResult(base, labelsKey(base), base, [], []);
  }

  /** Clears everything an entry changed; the base labels stay. */
  reset(): void {
    if (this.changed) {
      // Setting `length` is a runtime call in V8; `pop` is inlined, and entries change few labels.
      for (let c = 0; c < 3; c++) {
        const names = this.names[c];
        const values = this.values[c];
        while (names.length > 0) {
          names.pop();
          values.pop();
        }
      }
      while (this.deleted.length > 0) this.deleted.pop();
      this.changed = false;
    }
    this.err = '';
    this.errDetails = '';
    while (this.requiredSet.length > 0) this.requiredSet.pop();
  }

  /** What parsers extract (Loki's parser hints); sample extraction sets it. */
  get hints(): ParserHints {
    return this.parserHints;
  }

  set hints(hints: ParserHints) {
    this.parserHints = hints;
    this.nothingWanted = undefined;
  }

  /**
   * Whether no parser can extract a wanted label on this stream: every label the hints want is
   * a stream label, which a parser would store as `<name>_extracted` (as in
   * `sum by (level)` over streams labelled `level`). A parser that sets no error and leaves
   * the line as it is may then skip the line: nothing it could do would show.
   */
  parsersExtractNothing(): boolean {
    if (this.nothingWanted === undefined) {
      const required = this.parserHints.required;
      this.nothingWanted =
        required !== null &&
        required.size > 0 &&
        [...required].every((n) => this.baseMap.has(n) && !n.endsWith(DUPLICATE_SUFFIX));
    }
    return this.nothingWanted;
  }

  /**
   * Whether parsers have nothing to extract for this entry (Loki's `NoLabels()`): the query
   * needs no label, or every required one is set already.
   */
  skipParsers(): boolean {
    return this.hints.noLabels || this.allRequiredExtracted();
  }

  /** Whether every label the hints require is set on this entry (never without hints). */
  allRequiredExtracted(): boolean {
    const required = this.hints.required;
    return required !== null && required.size > 0 && this.requiredSet.length === required.size;
  }

  /** Whether the hints let a parser extract `name` (the name after `extractedName`). */
  wants(name: string): boolean {
    const required = this.hints.required;
    return required === null || required.has(name);
  }

  /**
   * Adds an entry's structured metadata: names normalized as Loki does, a name equal to a
   * stream label gets `_extracted`, and `__error__` / `__error_details__` set the error.
   */
  addStructuredMetadata(metadata: Labels): void {
    for (const p of metadata) {
      const name = this.metadataName(p.name);
      if (name === ERROR_LABEL) this.err = p.value;
      else if (name === ERROR_DETAILS_LABEL) this.errDetails = p.value;
      else this.set(LabelCategory.StructuredMetadata, name, p.value);
    }
  }

  /** The name a structured-metadata label is offered under: normalized, `_extracted` on a clash. */
  metadataName(raw: string): string {
    let name = this.normalizedNames.get(raw);
    if (name === undefined) {
      name = normalizeMetadataName(raw);
      if (this.baseMap.has(name)) name += DUPLICATE_SUFFIX;
      if (this.normalizedNames.size < MAX_CACHED_RESULTS) this.normalizedNames.set(raw, name);
    }
    return name;
  }

  baseHas(name: string): boolean {
    return this.baseMap.has(name);
  }

  /** The current value of a label; `__error__` / `__error_details__` read the error state. */
  get(name: string): string | undefined {
    if (this.changed) {
      for (let c = 2; c >= 0; c--) {
        const i = this.names[c].indexOf(name);
        if (i >= 0) return this.values[c][i];
      }
      if (this.deleted.length > 0 && this.deleted.includes(name)) return undefined;
    }
    const v = this.baseMap.get(name);
    if (v !== undefined) return v;
    if (name === ERROR_LABEL) return this.err === '' ? undefined : this.err;
    if (name === ERROR_DETAILS_LABEL) return this.errDetails === '' ? undefined : this.errDetails;
    return undefined;
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  /** The category of a present label, or undefined when it is absent. */
  categoryOf(name: string): LabelCategory | undefined {
    for (let c = 2; c >= 0; c--) if (this.names[c].includes(name)) return c;
    if (this.deleted.includes(name)) return undefined;
    return this.baseMap.has(name) ? LabelCategory.Stream : undefined;
  }

  /**
   * Sets a label in a category with Loki's precedence: parsed replaces metadata and stream
   * values; metadata replaces stream values but not parsed ones; stream never replaces either.
   */
  set(category: LabelCategory, name: string, value: string): void {
    if (name === ERROR_LABEL) {
      this.err = value;
      return;
    }
    if (name === ERROR_DETAILS_LABEL) {
      this.errDetails = value;
      return;
    }
    this.changed = true;
    if (category === LabelCategory.Parsed) {
      this.remove(LabelCategory.StructuredMetadata, name);
      this.remove(LabelCategory.Stream, name);
    } else if (category === LabelCategory.StructuredMetadata) {
      this.remove(LabelCategory.Stream, name);
      if (this.names[LabelCategory.Parsed].includes(name)) return;
    } else if (
      this.names[LabelCategory.StructuredMetadata].includes(name) ||
      this.names[LabelCategory.Parsed].includes(name)
    ) {
      return;
    }
    const names = this.names[category];
    const i = names.indexOf(name);
    if (i >= 0) {
      this.values[category][i] = value;
      return;
    }
    names.push(name);
    this.values[category].push(value);
    // Loki's `RecordExtracted`: every label set in any category counts, once.
    const required = this.hints.required;
    if (required !== null && required.has(name) && !this.requiredSet.includes(name)) {
      this.requiredSet.push(name);
    }
  }

  /**
   * The name a parser stores key `name` under: `<name>_extracted` when a stream label or a
   * structured-metadata label already holds the name (Loki 3.7's rule: the base name goes to
   * stream > structured metadata > parsed, and a parsed value spills to `_extracted`, where it
   * replaces a structured-metadata value that spilled there).
   */
  extractedName(name: string): string {
    if (!this.baseMap.has(name) && !this.names[LabelCategory.StructuredMetadata].includes(name)) {
      return name;
    }
    // One string per name: a fresh concatenation would be flattened and hashed on every use.
    let extracted = this.extractedNames.get(name);
    if (extracted === undefined) {
      extracted = name + DUPLICATE_SUFFIX;
      if (this.extractedNames.size < MAX_CACHED_RESULTS) this.extractedNames.set(name, extracted);
    }
    return extracted;
  }

  /**
   * Whether a parser stage may extract `name` for this entry: not when a stage already
   * extracted it on this entry, including the same stage for a key repeated in the line
   * ("first extracted wins", Loki PR #8724, made consistent in Loki 3.6 by #17104).
   */
  shouldExtract(name: string): boolean {
    return !this.changed || !this.names[LabelCategory.Parsed].includes(name);
  }

  /** How many parsed labels the entry has: a stage's mark for `extractedBefore`. */
  parsedMark(): number {
    return this.changed ? this.names[LabelCategory.Parsed].length : 0;
  }

  /**
   * Whether `name` was parsed on this entry before `mark` (by an earlier stage): a stage that
   * sets a name itself again (a key repeated in a logfmt line) replaces its own value, as in
   * Loki 3.4, while an earlier stage's value stays ("first extracted wins").
   */
  extractedBefore(name: string, mark: number): boolean {
    if (mark === 0) return false;
    const i = this.names[LabelCategory.Parsed].indexOf(name);
    return i >= 0 && i < mark;
  }

  /** Deletes labels of every category; `__error__` / `__error_details__` clear the error. */
  del(name: string): void {
    if (name === ERROR_LABEL) {
      this.err = '';
      return;
    }
    if (name === ERROR_DETAILS_LABEL) {
      this.errDetails = '';
      return;
    }
    for (let c = 0; c < 3; c++) this.remove(c, name);
    if (this.baseMap.has(name) && !this.deleted.includes(name)) {
      this.deleted.push(name);
      this.changed = true;
    }
  }

  private remove(category: LabelCategory, name: string): void {
    const names = this.names[category];
    if (names.length === 0) return;
    const i = names.indexOf(name);
    if (i < 0) return;
    names.splice(i, 1);
    this.values[category].splice(i, 1);
  }

  setErr(err: string): void {
    this.err = err;
  }

  /** A parser's error (Loki's `addErrLabel`): details only when given. */
  setParserErr(err: string, details?: string): void {
    this.err = err;
    if (details !== undefined) this.errDetails = details;
    if (this.preserveParserErrors) this.set(LabelCategory.Parsed, PRESERVE_ERROR_LABEL, 'true');
  }

  getErr(): string {
    return this.err;
  }

  hasErr(): boolean {
    return this.err !== '';
  }

  setErrorDetails(details: string): void {
    this.errDetails = details;
  }

  getErrorDetails(): string {
    return this.errDetails;
  }

  /** Sets the error and its details unless an error is already set (first error wins). */
  setErrIfNone(err: string, details: string): void {
    if (this.err !== '') return;
    this.err = err;
    this.errDetails = details;
  }

  /** Whether the labels differ from the stream's labels. */
  isChanged(): boolean {
    return this.changed || this.err !== '' || this.errDetails !== '';
  }

  /**
   * The current label set. Unchanged entries return the stream's cached result without any
   * work; changed ones are sorted once and deduplicated through a per-stream cache, so equal
   * label sets share one result object.
   */
  labels(): LabelsResult {
    if (!this.isChanged()) return this.baseResult;
    const delta = this.deltaKey();
    const known = this.byDelta.get(delta);
    if (known !== undefined) return known;
    const result = this.buildLabels();
    if (delta.length > MAX_CACHED_KEY_CHARS) return result;
    if (this.byDelta.size >= MAX_CACHED_RESULTS) this.byDelta.clear();
    this.byDelta.set(delta, result);
    return result;
  }

  /**
   * The labels of this entry's sample under `grouping` (Loki's `GroupedLabels`). An entry with
   * an error keeps all its labels so the error is reported; otherwise a `by` grouping looks up
   * the grouped labels only, without building the entry's full label set.
   */
  groupedLabels(): LabelsResult {
    if (this.err !== '') return this.labels();
    const g = this.grouping;
    if (g.noLabels) return EMPTY_LABELS_RESULT;
    if (!this.changed) {
      if (g.names.length === 0) return this.baseResult;
      if (this.baseGrouped === undefined) this.baseGrouped = this.reduce(this.baseResult);
      return this.baseGrouped;
    }
    if (g.names.length === 0) return this.labels();
    if (g.without) {
      const full = this.labels();
      let grouped = this.withoutCache.get(full);
      if (grouped === undefined) {
        grouped = this.reduce(full);
        this.withoutCache.set(full, grouped);
      }
      return grouped;
    }
    return this.byResult(g.names);
  }

  /** `by (names)`: the values of the grouped labels identify the result. */
  private byResult(names: readonly string[]): LabelsResult {
    if (names.length === 1) return this.byOneResult(names[0]);
    let key = '';
    for (let i = 0; i < names.length; i++) {
      const v = this.groupValue(names[i]);
      key += v === undefined ? '-' : `${v.length}:${v}`;
    }
    let result = this.byGroupValues.get(key);
    if (result !== undefined) return result;
    const labels: LabelPair[] = [];
    for (const name of names) {
      const value = this.groupValue(name);
      if (value !== undefined) labels.push({ name, value });
    }
    result = new LabelsResult(labels, labelsKey(labels), labels, [], []);
    if (key.length > MAX_CACHED_KEY_CHARS) return result;
    if (this.byGroupValues.size >= MAX_CACHED_RESULTS) this.byGroupValues.clear();
    this.byGroupValues.set(key, result);
    return result;
  }

  /**
   * `by (name)`, the common case: the value itself is the key (no key string to build), and
   * an entry with the same value as the one before gets the same result without a lookup.
   */
  private byOneResult(name: string): LabelsResult {
    const value = this.groupValue(name);
    if (this.lastOneResult !== undefined && this.lastOneValue === value) return this.lastOneResult;
    let result = value === undefined ? this.byOneMissing : this.byOneValue.get(value);
    if (result === undefined) {
      const labels: LabelPair[] = value === undefined ? [] : [{ name, value }];
      result = new LabelsResult(labels, labelsKey(labels), labels, [], []);
      if (value === undefined) this.byOneMissing = result;
      else if (value.length <= MAX_CACHED_KEY_CHARS) {
        if (this.byOneValue.size >= MAX_CACHED_RESULTS) this.byOneValue.clear();
        this.byOneValue.set(value, result);
      }
    }
    this.lastOneValue = value;
    this.lastOneResult = result;
    return result;
  }

  /** A grouped label's value; error labels only count when the entry has an error. */
  private groupValue(name: string): string | undefined {
    if (name === ERROR_LABEL || name === ERROR_DETAILS_LABEL) return undefined;
    return this.get(name);
  }

  /** A full label set (without an error) reduced by the grouping. */
  private reduce(full: LabelsResult): LabelsResult {
    const g = this.grouping;
    const names = new Set(g.names);
    const keep = (p: LabelPair): boolean =>
      names.has(p.name) !== g.without && p.name !== ERROR_DETAILS_LABEL;
    const labels = full.labels.filter(keep);
    return new LabelsResult(labels, labelsKey(labels), labels, [], []);
  }

  /**
   * What this entry changed, as a string that identifies the resulting label set for this
   * stream: every name and value length-prefixed, so no value can imitate another delta.
   */
  private deltaKey(): string {
    let key = '';
    for (let c = 0; c < 3; c++) {
      const names = this.names[c];
      const values = this.values[c];
      for (let i = 0; i < names.length; i++) {
        key += `${names[i].length}:${names[i]}${values[i].length}:${values[i]}`;
      }
      key += '|';
    }
    for (const d of this.deleted) key += `${d.length}:${d}`;
    return `${key}|${this.err.length}:${this.err}${this.errDetails}`;
  }

  private buildLabels(): LabelsResult {
    const stream: LabelPair[] = [];
    const smNames = this.names[LabelCategory.StructuredMetadata];
    const parsedNames = this.names[LabelCategory.Parsed];
    const streamNames = this.names[LabelCategory.Stream];
    for (const p of this.base) {
      if (this.deleted.length > 0 && this.deleted.includes(p.name)) continue;
      if (smNames.includes(p.name) || parsedNames.includes(p.name)) continue;
      const i = streamNames.indexOf(p.name);
      stream.push(i >= 0 ? { name: p.name, value: this.values[LabelCategory.Stream][i] } : p);
    }
    for (let i = 0; i < streamNames.length; i++) {
      const name = streamNames[i];
      if (!this.baseMap.has(name) || this.deleted.includes(name)) {
        stream.push({ name, value: this.values[LabelCategory.Stream][i] });
      }
    }
    const sm = pairs(smNames, this.values[LabelCategory.StructuredMetadata]);
    const parsed = pairs(parsedNames, this.values[LabelCategory.Parsed]);
    if (this.err !== '') parsed.push({ name: ERROR_LABEL, value: this.err });
    if (this.errDetails !== '') parsed.push({ name: ERROR_DETAILS_LABEL, value: this.errDetails });
    const all = [...stream, ...sm, ...parsed].sort(byName);
    const key = labelsKey(all);
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    if (this.cache.size >= MAX_CACHED_RESULTS) this.cache.clear();
    stream.sort(byName);
    sm.sort(byName);
    parsed.sort(byName);
    const result = new LabelsResult(all, key, stream, sm, parsed);
    if (key.length <= MAX_CACHED_KEY_CHARS) this.cache.set(key, result);
    return result;
  }
}

function pairs(names: string[], values: string[]): LabelPair[] {
  const out: LabelPair[] = [];
  for (let i = 0; i < names.length; i++) out.push({ name: names[i], value: values[i] });
  return out;
}
