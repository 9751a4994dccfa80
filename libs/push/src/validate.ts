import {
  getLabel,
  isValidLabelName,
  labelsToString,
  sortLabels,
  type LabelPair,
  type Labels,
  type LogEntry,
  type PushRequest,
  type PushStream,
  type RejectedStream,
  type StreamMemo,
} from '@logsvc/api';
import {
  DiscardCounts,
  DiscardReason as R,
  entrySize,
  GroupedErrors,
  metadataBytes,
} from './discards';
import { EntryCollector } from './entry-collector';
import { MISSING_STREAMS_MESSAGE, PushError } from './errors';
import { DETECTED_LEVEL, levelDetectorFor, type LevelDetector } from './level-detection';
import { levelOnlyMetadata } from './level-metadata';
import type { PushLimits } from './limits';
import { normalizeLabelName } from './normalize-label';
import { formatRfc3339 } from './rfc3339';

export type ValidationLimits = Pick<
  PushLimits,
  | 'max_line_size'
  | 'max_line_size_truncate'
  | 'max_label_name_length'
  | 'max_label_value_length'
  | 'max_label_names_per_series'
  | 'reject_old_samples'
  | 'reject_old_samples_max_age'
  | 'creation_grace_period'
  | 'allow_structured_metadata'
  | 'max_structured_metadata_size'
  | 'max_structured_metadata_entries_count'
  | 'discover_service_name'
  | 'discover_log_levels'
  | 'log_level_fields'
>;

export interface PushValidationResult {
  /** What may be stored: valid entries, with service_name, detected_level and truncation applied. */
  readonly request: PushRequest;
  /** Set when anything was rejected: 400 with grouped messages, or 422 for a request without streams. */
  readonly error?: PushError;
  readonly discarded: DiscardCounts;
  readonly acceptedLines: number;
  /** Line plus structured-metadata bytes of `request`: what the ingestion rate limiter charges. */
  readonly acceptedBytes: number;
  /**
   * Every line of the request as decoded, valid or not, and its line plus structured-metadata
   * bytes: Loki's `distributor_lines_received_total` / `bytes_received_total`.
   */
  readonly receivedLines: number;
  readonly receivedBytes: number;
  /** Lines shortened by max_line_size_truncate (Loki's `loki_mutated_samples_total{reason="line_too_long"}`). */
  readonly truncatedLines: number;
}

const SERVICE_NAME = 'service_name';
const AGGREGATED_METRIC = '__aggregated_metric__';
const MS_NS = 1_000_000n;

/**
 * Applies Loki's distributor checks to a decoded request. Invalid streams and entries are
 * dropped and reported; the rest is returned so the caller stores it and then answers with
 * `error` (400) if there is one.
 */
export function validatePush(
  req: PushRequest,
  limits: ValidationLimits,
  tenant: string,
  nowNs: bigint,
): PushValidationResult {
  const validator = new PushValidator(limits, tenant, nowNs);
  for (const r of req.rejected ?? []) validator.add(r);
  const streams: PushStream[] = [];
  for (const stream of req.streams) {
    const valid = validator.add(stream);
    if (valid !== undefined) streams.push(valid);
  }
  return validator.result(streams);
}

/**
 * The checks of `validatePush`, one stream at a time, so a large push can be validated in
 * slices (and its valid streams filtered further) without holding the whole request.
 */
export class PushValidator {
  private readonly ctx: ValidationContext;
  private readonly rejectedErrors = new GroupedErrors();
  private decoded = 0;

  constructor(limits: ValidationLimits, tenant: string, nowNs: bigint) {
    this.ctx = new ValidationContext(limits, tenant, nowNs, new DiscardCounts());
  }

  /** The stream as it may be stored, or undefined when nothing of it is valid. */
  add(stream: PushStream | RejectedStream): PushStream | undefined {
    this.decoded++;
    if ('reason' in stream) {
      // Refusals of undecodable labels lead the grouped message, as validatePush lists them.
      this.ctx.rejectStream(stream, this.rejectedErrors);
      return undefined;
    }
    if (stream.entries.length === 0) return undefined;
    return this.ctx.validateStream(stream);
  }

  /** The outcome over every stream added; `streams` is what the caller kept of them. */
  result(streams: PushStream[]): PushValidationResult {
    const ctx = this.ctx;
    if (this.decoded === 0) {
      return {
        request: { streams: [] },
        error: new PushError('unprocessable', MISSING_STREAMS_MESSAGE),
        discarded: ctx.discarded,
        acceptedLines: 0,
        acceptedBytes: 0,
        receivedLines: 0,
        receivedBytes: 0,
        truncatedLines: 0,
      };
    }
    const errors = GroupedErrors.concat(this.rejectedErrors, ctx.errors);
    return {
      request: { streams },
      error: errors.size > 0 ? new PushError('bad_request', errors.message()) : undefined,
      discarded: ctx.discarded,
      acceptedLines: ctx.acceptedLines,
      acceptedBytes: ctx.acceptedBytes,
      receivedLines: ctx.receivedLines,
      receivedBytes: ctx.receivedBytes,
      truncatedLines: ctx.truncatedLines,
    };
  }
}

/**
 * A stream's labels as validation leaves them, for one set of limits. It is also the memo its
 * validated streams carry to the ingester (one object: the ingester reads it right after).
 */
interface StreamIdentity extends StreamMemo {
  readonly limits: ValidationLimits;
  readonly labels: Labels;
  readonly text: string;
  readonly labelError: [string, string] | undefined;
  readonly streamLevel: string | undefined;
  /** `levelOnlyMetadata(streamLevel)`, when there is a stream level. */
  readonly streamLevelMetadata: Labels | undefined;
}

/** Keyed by the pushed labels array: an entry lives as long as its decoders' cache keeps it. */
const STREAM_IDENTITIES = new WeakMap<Labels, StreamIdentity>();

class ValidationContext {
  readonly errors = new GroupedErrors();
  acceptedLines = 0;
  acceptedBytes = 0;
  receivedLines = 0;
  receivedBytes = 0;
  truncatedLines = 0;
  private readonly oldestNs: bigint;
  private readonly newestNs: bigint;
  private readonly levels: LevelDetector | undefined;
  /** A stream's valid entries as they are checked. */
  private readonly kept = new EntryCollector();

  constructor(
    private readonly limits: ValidationLimits,
    private readonly tenant: string,
    nowNs: bigint,
    readonly discarded: DiscardCounts,
  ) {
    // Before 1970 nothing can be stored (chunk keys and index periods count from the epoch),
    // even with reject_old_samples off: refused here rather than stuck in the ingester.
    const maxAgeCutoff = nowNs - BigInt(Math.round(limits.reject_old_samples_max_age)) * MS_NS;
    this.oldestNs = limits.reject_old_samples && maxAgeCutoff > 0n ? maxAgeCutoff : 0n;
    this.newestNs = nowNs + BigInt(Math.round(limits.creation_grace_period)) * MS_NS;
    const detect = limits.discover_log_levels && limits.allow_structured_metadata;
    this.levels = detect ? levelDetectorFor(limits.log_level_fields) : undefined;
  }

  private reject(
    reason: string,
    message: string,
    lines: number,
    bytes: number,
    errors = this.errors,
  ): void {
    errors.add(reason, message);
    this.discarded.add(reason, lines, bytes);
  }

  /** A stream the decoder refused (its labels do not parse): all its entries are discarded. */
  rejectStream(stream: RejectedStream, errors: GroupedErrors): void {
    if (stream.entries.length > 0)
      this.rejectEntries(stream.reason, stream.message, stream.entries, errors);
  }

  /** Entries received and refused together for one reason (a whole stream). */
  private rejectEntries(
    reason: string,
    message: string,
    entries: readonly LogEntry[],
    errors = this.errors,
  ): void {
    let bytes = 0;
    for (const e of entries) bytes += entrySize(e.line, e.structuredMetadata);
    this.receivedLines += entries.length;
    this.receivedBytes += bytes;
    this.reject(reason, message, entries.length, bytes, errors);
  }

  validateStream(stream: PushStream): PushStream | undefined {
    const identity = this.identityOf(stream);
    const { labels, text, labelError } = identity;
    if (labelError !== undefined) {
      this.rejectEntries(labelError[0], labelError[1], stream.entries);
      return undefined;
    }
    const kept = this.kept;
    this.receivedLines += stream.entries.length;
    let bytes = 0;
    for (const original of stream.entries) {
      const entry = this.validateEntry(original, text);
      if (entry === undefined) continue;
      const out = this.levels === undefined ? entry : this.addDetectedLevel(entry, identity);
      bytes += entrySize(out.line, out.structuredMetadata);
      kept.add(out);
    }
    if (kept.length === 0) return undefined;
    const entries = kept.take();
    this.acceptedLines += entries.length;
    this.acceptedBytes += bytes;
    return { labels, entries, labelsText: text, bytes, memo: identity };
  }

  /**
   * What validation makes of a stream's labels. Decoders hand out one labels array and memo
   * per label string (see LabelsCache), so this is worked out once per stream and tenant
   * limits, not once per push: agents send the same streams again and again.
   */
  private identityOf(stream: PushStream): StreamIdentity {
    const memo = stream.memo;
    if (memo !== undefined && memo.key === this.limits) return memo.value as StreamIdentity;
    const pushed = stream.labels;
    let identity = STREAM_IDENTITIES.get(pushed);
    if (identity === undefined || identity.limits !== this.limits) {
      const labels = this.withServiceName(pushed);
      const text = labelsToString(labels);
      const streamLevel = this.levels?.fromLabels(labels);
      identity = {
        limits: this.limits,
        labels,
        text,
        labelError: this.checkLabels(labels, text),
        streamLevel,
        streamLevelMetadata: streamLevel === undefined ? undefined : levelOnlyMetadata(streamLevel),
        key: null,
        value: undefined,
      };
      STREAM_IDENTITIES.set(pushed, identity);
    }
    if (memo !== undefined) {
      memo.key = this.limits;
      memo.value = identity;
    }
    return identity;
  }

  /** Adds service_name from discover_service_name (or `unknown_service`) when it is absent. */
  private withServiceName(labels: Labels): Labels {
    const discover = this.limits.discover_service_name;
    if (
      discover.length === 0 ||
      getLabel(labels, SERVICE_NAME) !== undefined ||
      getLabel(labels, AGGREGATED_METRIC) !== undefined
    ) {
      return labels;
    }
    let value = 'unknown_service';
    for (const name of discover) {
      const v = getLabel(labels, name);
      if (v) {
        value = v;
        break;
      }
    }
    return sortLabels([...labels, { name: SERVICE_NAME, value }]);
  }

  private checkLabels(labels: Labels, text: string): [string, string] | undefined {
    const l = this.limits;
    if (labels.length === 0)
      return [R.missingLabels, 'error at least one label pair is required per stream'];
    let count = labels.length;
    if (getLabel(labels, SERVICE_NAME) !== undefined) count--;
    if (count > l.max_label_names_per_series) {
      return [
        R.maxLabelNamesPerSeries,
        `entry for stream '${text}' has ${count} label names; limit ${l.max_label_names_per_series}`,
      ];
    }
    let last = '';
    for (const { name, value } of labels) {
      if (!isValidLabelName(name)) {
        return [
          R.invalidLabels,
          `Error parsing labels '${text}' with error: invalid label name "${name}"`,
        ];
      }
      if (name.length > l.max_label_name_length)
        return [R.labelNameTooLong, `stream '${text}' has label name too long: '${name}'`];
      if (Buffer.byteLength(value) > l.max_label_value_length) {
        return [R.labelValueTooLong, `stream '${text}' has label value too long: '${value}'`];
      }
      if (name === last)
        return [R.duplicateLabelNames, `stream '${text}' has duplicate label name: '${name}'`];
      last = name;
    }
    return undefined;
  }

  private validateEntry(entry: LogEntry, text: string): LogEntry | undefined {
    const l = this.limits;
    let line = entry.line;
    if (l.max_line_size_truncate && l.max_line_size > 0 && line.length > l.max_line_size) {
      line = line.subarray(0, l.max_line_size);
      this.truncatedLines++;
    }
    const metadata = entry.structuredMetadata;
    const metaBytes = metadataBytes(metadata);
    // As received, before truncation: Loki's bytes_received counts the pushed line.
    this.receivedBytes += entry.line.length + metaBytes;
    const size = line.length + metaBytes;
    const ts = entry.timestampNs;
    if (ts < this.oldestNs) {
      this.reject(
        R.greaterThanMaxSampleAge,
        `entry for stream '${text}' has timestamp too old: ${formatRfc3339(ts)}, oldest acceptable timestamp is: ${formatRfc3339(this.oldestNs)}`,
        1,
        size,
      );
      return undefined;
    }
    if (ts > this.newestNs) {
      this.reject(
        R.tooFarInFuture,
        `entry for stream '${text}' has timestamp too new: ${formatRfc3339(ts)}`,
        1,
        size,
      );
      return undefined;
    }
    if (l.max_line_size > 0 && line.length > l.max_line_size) {
      this.reject(
        R.lineTooLong,
        `Max entry size '${l.max_line_size}' bytes exceeded for stream '${text}' while adding an entry with length '${line.length}' bytes`,
        1,
        size,
      );
      return undefined;
    }
    if (metadata.length > 0) {
      if (!l.allow_structured_metadata) {
        this.reject(
          R.disallowedStructuredMetadata,
          `stream '${text}' includes structured metadata, but this feature is disallowed. Please see \`limits_config.allow_structured_metadata\` or contact your Loki administrator to enable it.`,
          1,
          size,
        );
        return undefined;
      }
      if (l.max_structured_metadata_size > 0 && metaBytes > l.max_structured_metadata_size) {
        this.reject(
          R.structuredMetadataTooLarge,
          `stream '${text}' has structured metadata too large: '${metaBytes}' bytes, limit: '${l.max_structured_metadata_size}' bytes. Please see \`limits_config.max_structured_metadata_size\` or contact your Loki administrator to increase it.`,
          1,
          size,
        );
        return undefined;
      }
      if (
        l.max_structured_metadata_entries_count > 0 &&
        metadata.length > l.max_structured_metadata_entries_count
      ) {
        this.reject(
          R.structuredMetadataTooMany,
          `stream '${text}' has too many structured metadata labels: '${metadata.length}', limit: '${l.max_structured_metadata_entries_count}'. Please see \`limits_config.max_structured_metadata_entries_count\` or contact your Loki administrator to increase it.`,
          1,
          size,
        );
        return undefined;
      }
      if (metadata.some((p) => p.name === '')) {
        // Loki stores such a pair and no query can address it; refuse it instead.
        this.reject(
          R.invalidLabels,
          `stream '${text}' has structured metadata with an empty name`,
          1,
          size,
        );
        return undefined;
      }
    }
    const normalized = normalizeMetadataNames(metadata);
    if (line === entry.line && normalized === metadata) return entry;
    return { timestampNs: ts, line, structuredMetadata: normalized };
  }

  private addDetectedLevel(entry: LogEntry, identity: StreamIdentity): LogEntry {
    const metadata = entry.structuredMetadata;
    if (metadata.length > 0 && getLabel(metadata, DETECTED_LEVEL) !== undefined) return entry;
    let structuredMetadata: Labels;
    if (metadata.length === 0) {
      // Most entries have no metadata: share one frozen array per level.
      structuredMetadata =
        identity.streamLevelMetadata ??
        levelOnlyMetadata(this.levels!.fromEntry(metadata, entry.line));
    } else {
      const level = identity.streamLevel ?? this.levels!.fromEntry(metadata, entry.line);
      structuredMetadata = insertSorted(metadata, { name: DETECTED_LEVEL, value: level });
    }
    return { timestampNs: entry.timestampNs, line: entry.line, structuredMetadata };
  }
}

/** Structured metadata names go through NormalizeLabel, as in Loki; returns the input if unchanged. */
function normalizeMetadataNames(metadata: Labels): Labels {
  let changed = false;
  for (const p of metadata) {
    if (normalizeLabelName(p.name) !== p.name) {
      changed = true;
      break;
    }
  }
  if (!changed) return metadata;
  return sortLabels(metadata.map((p) => ({ name: normalizeLabelName(p.name), value: p.value })));
}

function insertSorted(labels: Labels, pair: LabelPair): Labels {
  const out: LabelPair[] = [];
  let inserted = false;
  for (const p of labels) {
    if (!inserted && p.name > pair.name) {
      out.push(pair);
      inserted = true;
    }
    out.push(p);
  }
  if (!inserted) out.push(pair);
  return out;
}
