import type { Labels, PushStream } from '@logsvc/api';
import type { IngesterQueryStats } from '@logsvc/ingester';
import { LogsvcError } from '@logsvc/errors';
import { decodeLokiProtobuf } from '@logsvc/push';
import { Reader, Writer } from 'protobufjs/minimal';
import { asBuffer } from './codec';
import { int64 } from './convert';
import { INGESTER_STATS } from './messages';

// Loki's QueryResponse: `repeated StreamAdapter streams = 1; stats.Ingester stats = 2`, with our
// own IngesterStats. StreamAdapter { labels = 1; entries = 2 }, EntryAdapter { timestamp = 1;
// line = 2; structuredMetadata = 3 }, as in push.proto, so the push decoder reads the streams.
const STREAMS = (1 << 3) | 2;
const STATS = (2 << 3) | 2;
const LABELS = (1 << 3) | 2;
const ENTRY = (2 << 3) | 2;
const TIMESTAMP = (1 << 3) | 2;
const SECONDS = 1 << 3;
const NANOS = 2 << 3;
const LINE = (2 << 3) | 2;
const METADATA = (3 << 3) | 2;
const PAIR_NAME = (1 << 3) | 2;
const PAIR_VALUE = (2 << 3) | 2;

const NS = 1_000_000_000n;
/** Bytes an entry takes beyond its line and metadata (tags, lengths, timestamp), at most. */
const ENTRY_OVERHEAD = 24;

/**
 * Builds QueryResponse messages of about `maxBytes` each from streams' entries. Lines are copied
 * into the message when it is finished, so entries added must stay unchanged until `finish`.
 */
export class QueryBatchEncoder {
  private writer = Writer.create();
  private bytes = 0;
  // The whole second of the last timestamp, in ns, and as seconds: entries mostly share it.
  private secondNs: bigint | null = null;
  private seconds = 0;

  constructor(private readonly maxBytes: number) {}

  /** Whether the message reached its size: finish it before adding more. */
  get full(): boolean {
    return this.bytes >= this.maxBytes;
  }

  beginStream(labelsText: string): void {
    this.writer.uint32(STREAMS).fork().uint32(LABELS).string(labelsText);
    this.bytes += labelsText.length + 8;
  }

  addEntry(timestampNs: bigint, line: Buffer, structuredMetadata: Labels): void {
    const w = this.writer.uint32(ENTRY).fork();
    let intoSecond = this.secondNs === null ? -1n : timestampNs - this.secondNs;
    if (intoSecond < 0n || intoSecond >= NS) {
      let seconds = timestampNs / NS;
      if (seconds * NS > timestampNs) seconds -= 1n; // floor, so nanos is never negative
      this.seconds = Number(seconds);
      this.secondNs = seconds * NS;
      intoSecond = timestampNs - this.secondNs;
    }
    const nanos = Number(intoSecond);
    w.uint32(TIMESTAMP).fork();
    if (this.seconds !== 0) w.uint32(SECONDS).int64(this.seconds);
    if (nanos !== 0) w.uint32(NANOS).int32(nanos);
    w.ldelim();
    w.uint32(LINE).bytes(line);
    let size = line.length + ENTRY_OVERHEAD;
    for (const { name, value } of structuredMetadata) {
      w.uint32(METADATA).fork().uint32(PAIR_NAME).string(name).uint32(PAIR_VALUE).string(value);
      w.ldelim();
      size += name.length + value.length + 6;
    }
    w.ldelim();
    this.bytes += size;
  }

  endStream(): void {
    this.writer.ldelim();
  }

  /** The message so far (with `stats` when given: the last message), and a new one begun. */
  finish(stats?: IngesterQueryStats): Buffer {
    if (stats) {
      const encoded = INGESTER_STATS.encode({
        totalChunksMatched: int64(stats.totalChunksMatched),
        headChunkBytes: int64(stats.headChunkBytes),
        headChunkLines: int64(stats.headChunkLines),
        compressedBytes: int64(stats.compressedBytes),
      });
      this.writer.uint32(STATS).bytes(encoded);
    }
    const out = asBuffer(this.writer.finish());
    this.writer = Writer.create();
    this.bytes = 0;
    return out;
  }
}

/** One QueryResponse: its streams (lines are views into `bytes`) and the stats of the last one. */
export interface QueryBatch {
  readonly streams: PushStream[];
  readonly stats?: IngesterQueryStats;
}

export function decodeQueryBatch(bytes: Buffer): QueryBatch {
  const { streams, rejected } = decodeLokiProtobuf(bytes);
  if (rejected && rejected.length > 0) {
    throw new LogsvcError('internal', `query response: ${rejected[0].message}`);
  }
  const stats = readStats(bytes);
  return stats ? { streams, stats } : { streams };
}

function readStats(bytes: Buffer): IngesterQueryStats | undefined {
  const reader = Reader.create(bytes);
  let stats: IngesterQueryStats | undefined;
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag !== STATS) {
      reader.skipType(tag & 7);
      continue;
    }
    const wire = INGESTER_STATS.decode(reader.bytes() as Buffer);
    stats = {
      totalChunksMatched: Number(wire.totalChunksMatched),
      headChunkBytes: Number(wire.headChunkBytes),
      headChunkLines: Number(wire.headChunkLines),
      compressedBytes: Number(wire.compressedBytes),
    };
  }
  return stats;
}
