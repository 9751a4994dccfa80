/** Loki's discard reasons (the `reason` label of loki_discarded_samples_total). */
export const DiscardReason = {
  lineTooLong: 'line_too_long',
  greaterThanMaxSampleAge: 'greater_than_max_sample_age',
  tooFarInFuture: 'too_far_in_future',
  invalidLabels: 'invalid_labels',
  missingLabels: 'missing_labels',
  maxLabelNamesPerSeries: 'max_label_names_per_series',
  labelNameTooLong: 'label_name_too_long',
  labelValueTooLong: 'label_value_too_long',
  duplicateLabelNames: 'duplicate_label_names',
  disallowedStructuredMetadata: 'disallowed_structured_metadata',
  structuredMetadataTooLarge: 'structured_metadata_too_large',
  structuredMetadataTooMany: 'structured_metadata_too_many',
  rateLimited: 'rate_limited',
  perStreamRateLimit: 'per_stream_rate_limit',
  blockedIngestion: 'blocked_ingestion',
} as const;

export interface DiscardCount {
  lines: number;
  bytes: number;
}

/** Discarded lines and bytes by reason, for `loki_discarded_samples_total` / `_bytes_total`. */
export class DiscardCounts {
  readonly byReason = new Map<string, DiscardCount>();

  add(reason: string, lines: number, bytes: number): void {
    const c = this.byReason.get(reason);
    if (c === undefined) this.byReason.set(reason, { lines, bytes });
    else {
      c.lines += lines;
      c.bytes += bytes;
    }
  }

  get totalLines(): number {
    let n = 0;
    for (const c of this.byReason.values()) n += c.lines;
    return n;
  }
}

/**
 * Validation errors of one request, reported as Loki does: one message as is, several as
 * `N errors like: <first of each kind>; ...`.
 */
export class GroupedErrors {
  private count = 0;
  private readonly firstByReason = new Map<string, string>();

  add(reason: string, message: string): void {
    this.count++;
    if (!this.firstByReason.has(reason)) this.firstByReason.set(reason, message);
  }

  get size(): number {
    return this.count;
  }

  /** `a`'s errors followed by `b`'s, as if all had been added to one in that order. */
  static concat(a: GroupedErrors, b: GroupedErrors): GroupedErrors {
    const out = new GroupedErrors();
    out.count = a.count + b.count;
    for (const src of [a, b]) {
      for (const [reason, message] of src.firstByReason) {
        if (!out.firstByReason.has(reason)) out.firstByReason.set(reason, message);
      }
    }
    return out;
  }

  message(): string {
    const samples = [...this.firstByReason.values()];
    if (this.count === 1) return samples[0];
    return `${this.count} errors like: ${samples.join('; ')}`;
  }
}

type Metadata = readonly { readonly name: string; readonly value: string }[];

/** The last frozen metadata array measured: most entries of a request share one. */
let lastFrozen: Metadata | null = null;
let lastFrozenBytes = 0;

/** UTF-8 bytes of the metadata names and values. */
export function metadataBytes(metadata: Metadata): number {
  if (metadata.length === 0) return 0;
  if (metadata === lastFrozen) return lastFrozenBytes;
  let n = 0;
  for (const p of metadata) n += Buffer.byteLength(p.name) + Buffer.byteLength(p.value);
  // Only a frozen array is sure to hold the same pairs when it comes again.
  if (Object.isFrozen(metadata)) {
    lastFrozen = metadata;
    lastFrozenBytes = n;
  }
  return n;
}

/** Bytes an entry counts for in rate limits and discard counters: line + metadata names/values. */
export function entrySize(line: Buffer, metadata: Metadata): number {
  return line.length + metadataBytes(metadata);
}
