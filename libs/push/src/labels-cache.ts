import {
  LabelParseError,
  parseLabels,
  type Labels,
  type LogEntry,
  type PushRequest,
  type PushStream,
  type RejectedStream,
  type StreamMemo,
} from '@logsvc/api';
import { ByteKeyTable } from './byte-key-table';
import { badRequest, PushError } from './errors';

/** Distinct label strings the shared cache remembers; past it, it starts over (memory). */
const MAX_SHARED = 50_000;
/** Bytes of label strings the byte-keyed side keeps; past it, that side starts over. */
const MAX_KEY_BYTES = 32 * 1024 * 1024;

/**
 * Parses stream label strings once: agents send the same few thousand streams push after push,
 * and a batch repeats its selectors. Every push decoder uses the one shared cache, so a label
 * string maps to one labels array for as long as it is cached (validation keys its own work on
 * that array). Empty values are dropped (an empty value means "absent", as in Loki).
 */
export class LabelsCache {
  private readonly cache = new Map<string, CachedLabels>();
  /** The same entries keyed by the label string's UTF-8 bytes, for decoders that have them. */
  private readonly byBytes = new ByteKeyTable<CachedLabels>();

  constructor(private readonly maxCached: number) {}

  static readonly shared = new LabelsCache(MAX_SHARED);

  /** The parsed labels, or the 400 error (with its discard reason) for a string that does not parse. */
  parse(text: string): Labels | PushError {
    const cached = this.lookup(text);
    return cached.error ?? cached.labels;
  }

  /** The entries as a stream of these labels, or as a rejected stream when they do not parse. */
  stream(text: string, entries: LogEntry[]): PushStream | RejectedStream {
    return asStream(this.lookup(text), entries);
  }

  /**
   * As `stream`, for a label string given as the UTF-8 bytes `buf[start, end)` (a protobuf
   * field in place): found by its bytes, without making a string, once it was seen.
   */
  streamFromBytes(
    buf: Buffer,
    start: number,
    end: number,
    entries: LogEntry[],
  ): PushStream | RejectedStream {
    let cached = this.byBytes.get(buf, start, end);
    if (cached === undefined) {
      cached = this.lookup(buf.toString('utf8', start, end));
      // `lookup` empties this table when the string map starts over; it is also bounded on
      // its own, by key bytes and by count (byte strings that decode to one string count apart).
      const full = this.byBytes.keyBytes + (end - start) > MAX_KEY_BYTES;
      if (full || this.byBytes.size >= this.maxCached) this.byBytes.clear();
      this.byBytes.set(buf, start, end, cached);
    }
    return asStream(cached, entries);
  }

  /** What `streamFromBytes` would find for these bytes without parsing them; undefined if unseen. */
  peek(buf: Buffer, start: number, end: number): KnownLabels | undefined {
    return this.byBytes.get(buf, start, end);
  }

  /** As `streamFromBytes`, with what `peek` found for the same bytes. */
  streamFromKnown(known: KnownLabels, entries: LogEntry[]): PushStream | RejectedStream {
    return asStream(known, entries);
  }

  /**
   * Reads the first `count` of `known` and the memo each one's streams carry on to the next
   * stage (validation's, whose value is in turn the ingester's), one after the other for all,
   * so that their cache misses overlap (see `LabelsReadAhead`). Returns something of what it
   * read, for the caller to keep.
   */
  static warm(known: readonly (KnownLabels | undefined)[], count: number): number {
    let sum = 0;
    for (let i = 0; i < count; i++) {
      const k = known[i];
      if (k !== undefined && k.error === null && typeof k.value === 'object') sum++;
    }
    for (let i = 0; i < count; i++) {
      const next = known[i]?.value;
      if (typeof next === 'object' && next !== null && (next as StreamMemo).key !== null) sum++;
    }
    return sum;
  }

  private lookup(text: string): CachedLabels {
    let cached = this.cache.get(text);
    if (cached === undefined) {
      let labels: Labels = [];
      let error: PushError | null = null;
      try {
        labels = parseStreamLabels(text);
      } catch (err) {
        if (!(err instanceof PushError)) throw err;
        error = err;
      }
      cached = { labels, error, key: null, value: undefined };
      if (this.cache.size >= this.maxCached) {
        this.cache.clear();
        this.byBytes.clear();
      }
      this.cache.set(text, cached);
    }
    return cached;
  }
}

/** A label string as the cache knows it, to hand back to `streamFromKnown`. */
export type KnownLabels = CachedLabels;

/** A label string as parsed; also the memo its streams carry (see `PushStream.memo`). */
interface CachedLabels extends StreamMemo {
  /** Empty when the string does not parse. */
  readonly labels: Labels;
  /**
   * Why the string does not parse, or null. Kept apart from `labels` so that a push's stream
   * reads only this object, not the labels array, which lies elsewhere in memory and which
   * validation does not read again once it knows the stream (see the validator's memo).
   */
  readonly error: PushError | null;
}

function asStream(cached: CachedLabels, entries: LogEntry[]): PushStream | RejectedStream {
  const error = cached.error;
  if (error !== null) {
    return { reason: error.reason ?? 'invalid_labels', message: error.message, entries };
  }
  return { labels: cached.labels, entries, memo: cached };
}

/** Collects a decoder's streams, setting aside the rejected ones, into a request. */
export class PushRequestBuilder {
  private readonly streams: PushStream[] = [];
  private readonly rejected: RejectedStream[] = [];

  add(stream: PushStream | RejectedStream): void {
    if ('reason' in stream) this.rejected.push(stream);
    else this.streams.push(stream);
  }

  build(): PushRequest {
    const { streams, rejected } = this;
    return rejected.length > 0 ? { streams, rejected } : { streams };
  }
}

export function parseStreamLabels(text: string): Labels {
  let labels: Labels;
  try {
    labels = parseLabels(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    const dup = /^duplicate label name: (.*)$/.exec(reason);
    if (err instanceof LabelParseError && dup) {
      throw badRequest(
        `stream '${text}' has duplicate label name: '${dup[1]}'`,
        'duplicate_label_names',
      );
    }
    throw badRequest(`Error parsing labels '${text}' with error: ${reason}`, 'invalid_labels');
  }
  for (const p of labels) if (p.value === '') return labels.filter((l) => l.value !== '');
  return labels;
}
