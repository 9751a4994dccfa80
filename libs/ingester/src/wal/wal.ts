import { mkdir, readFile, rename, rm, truncate } from 'node:fs/promises';
import type { PushBodySource } from '@logsvc/api';
import { SlabPool } from '@logsvc/chunk';
import { DirLock } from './dir-lock';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { WalCorruptionError, WalWriteError } from '../errors';
import type { IngesterLogger } from '../logger';
import type { IngesterCounters } from '../metrics';
import { checkpointPath, checkpointTempPath, fsyncDir, listWalDir, segmentPath } from './files';
import { FRAME_HEADER_SIZE, readFrame, RecordType } from './frame';
import {
  decodePushRecord,
  encodePushRecord,
  type DecodedPush,
  type DecodedPushStream,
  type WalStreamInput,
} from './push-record';
import {
  decodeCheckpointRecord,
  encodeCheckpointEnd,
  encodeCheckpointHeader,
  type CheckpointStream,
} from './records';
import { SegmentWriter, writeFully } from './segment-writer';
import { SeriesRefs, type SeriesNames } from './series-refs';
import { NODE_WAL_FS, type WalFs } from './wal-fs';

/** Takes a failed record's entries back out of memory; gets them decoded from the record. */
export type WalUndo = (streams: readonly DecodedPushStream[]) => void;

export const DEFAULT_SEGMENT_SIZE = 64 * 1024 * 1024;
/** Replay yields to the event loop after this many records. */
const REPLAY_YIELD_EVERY = 256;
/** Checkpoint stream records are written out in batches of about this many bytes. */
const CHECKPOINT_WRITE_BATCH = 1024 * 1024;

export interface WalOptions {
  readonly dir: string;
  /** A segment is closed and the next one started once it reaches this size. */
  readonly segmentSize?: number;
  readonly logger: IngesterLogger;
  readonly counters: IngesterCounters;
  /** Directory lock timing (tests shorten it); see DirLock. */
  readonly lockHeartbeatMs?: number;
  readonly lockStaleMs?: number;
  /** Where segment and checkpoint files are opened (tests inject write failures). */
  readonly fs?: WalFs;
}

/** Receives what replay finds, in order: checkpoint streams first, then push records. */
export interface ReplayTarget {
  restoreStream(stream: CheckpointStream): void;
  replayPush(seq: number, tenant: string, streams: DecodedPushStream[]): void;
}

export interface ReplayResult {
  readonly checkpointStreams: number;
  readonly records: number;
  readonly segments: number;
  readonly durationMs: number;
}

/**
 * The ingester's write-ahead log in one directory: numbered segment files of framed push
 * records, and checkpoints that hold all unflushed stream data as of a segment boundary.
 * Usage: `open`, `replay`, then `append`/`checkpoint` until `close`.
 */
export class Wal {
  private writer: SegmentWriter | null = null;
  /** Push frames live only until their write is done: cut them from reused slabs. */
  private readonly framePool = new SlabPool({ slabSize: 4 * 1024 * 1024 });
  private seq = 1;
  private lastSegment = 0;
  private checkpointing = false;
  /** Appended records not yet on disk (or failed). */
  private readonly pending = new Set<Promise<void>>();
  /** Every record with a sequence number up to this one is on disk or failed and undone. */
  private settled = 0;
  /** Settled records above `settled` (the writer settles in order; early refusals do not). */
  private readonly settledAhead = new Set<number>();
  /** Records whose write failed, ever (a checkpoint taken meanwhile may hold their entries). */
  private failures = 0;
  private lock: DirLock | null = null;
  /** Set when another process took the directory: appending now would corrupt its log. */
  private lockLost: string | null = null;
  /** Series numbers of the records this process writes (set up by replay). */
  private refs = new SeriesRefs();

  private constructor(private readonly opts: WalOptions) {}

  /** Throws WalLockedError when another live process has the directory open. */
  static async open(opts: WalOptions): Promise<Wal> {
    await mkdir(opts.dir, { recursive: true });
    const wal = new Wal(opts);
    wal.lock = await DirLock.acquire(opts.dir, {
      heartbeatMs: opts.lockHeartbeatMs,
      staleMs: opts.lockStaleMs,
      onLost: (reason) => {
        wal.lockLost = reason;
        opts.logger.error({ dir: opts.dir, reason }, 'WAL directory lock lost; refusing appends');
      },
    });
    return wal;
  }

  /** The sequence number the next appended record gets; records below it are appended. */
  get nextSeq(): number {
    return this.seq;
  }

  /**
   * Replays the newest checkpoint and the segments after it into `target`, then starts a new
   * segment for appends. A segment that ends in a torn or corrupt record is truncated there
   * (and logged); every record before it is kept.
   */
  async replay(target: ReplayTarget): Promise<ReplayResult> {
    if (this.writer) throw new Error('replay must run before the WAL accepts appends');
    const started = performance.now();
    const { dir, logger } = this.opts;
    const listing = await listWalDir(dir);
    for (const tmp of listing.temporaries) await rm(tmp, { force: true });

    let firstSegment = 0;
    let checkpointStreams = 0;
    const latest = listing.checkpoints.at(-1);
    if (latest !== undefined) {
      const loaded = await this.loadCheckpoint(latest, target);
      firstSegment = latest;
      checkpointStreams = loaded;
    }
    let records = 0;
    let segments = 0;
    // One table over all segments: a run's numbers are defined once and used in later segments.
    const names = new ReplayNames();
    for (const index of listing.segments) {
      this.lastSegment = Math.max(this.lastSegment, index);
      if (index < firstSegment) {
        // Left behind by a checkpoint whose cleanup was interrupted; already covered.
        await rm(segmentPath(dir, index), { force: true });
        continue;
      }
      records += await this.replaySegment(index, target, names);
      segments++;
    }
    if (names.unknown > 0) {
      this.opts.counters.wal_corruptions_total++;
      logger.warn(
        { streams: names.unknown },
        'WAL records name series whose definition was lost with a damaged record; their entries are skipped',
      );
    }
    this.refs = new SeriesRefs(names.maxRef + 1);
    this.lastSegment = Math.max(this.lastSegment, firstSegment);
    this.settled = this.seq - 1;
    this.writer = await SegmentWriter.create(
      dir,
      this.lastSegment + 1,
      this.opts.segmentSize ?? DEFAULT_SEGMENT_SIZE,
      this.opts.counters,
      this.framePool,
      this.opts.fs ?? NODE_WAL_FS,
      () => this.refs.newEpoch(),
    );
    const durationMs = performance.now() - started;
    this.opts.counters.wal_replayed_records_total += records;
    this.opts.counters.wal_replay_duration_ms = durationMs;
    logger.info({ checkpointStreams, records, segments, durationMs }, 'WAL replay complete');
    return { checkpointStreams, records, segments, durationMs };
  }

  /** Sequence numbers up to this one are settled: on disk, or failed and `undo` has run. */
  get settledSeq(): number {
    return this.settled;
  }

  /**
   * Appends one push (its accepted entries) as a record. The record's sequence number is
   * taken synchronously, so state changed in the same tick is ordered with it; the promise
   * resolves once the record is fsync'd. If the write fails, `undo` runs with the record's
   * streams before anything else learns of it (before `settledSeq` moves past the record), so
   * whoever waits on the record sees memory without its entries.
   *
   * Only the encoded frame waits for the disk: `undo` gets the entries decoded from it, so the
   * caller need not keep the push's entry objects alive through the fsync (they would outlive
   * the young generation, and many small pushes then cost major collections).
   *
   * `source`, the push's body when the lines are views of it, may be recorded in place of
   * the lines (see `encodePushRecord`).
   */
  append(
    tenant: string,
    streams: readonly WalStreamInput[],
    undo?: WalUndo,
    source?: PushBodySource,
  ): Promise<void> {
    const seq = this.seq++;
    const refs = this.refs;
    const epoch = refs.currentEpoch;
    let frame: Buffer;
    try {
      frame = encodePushRecord(seq, tenant, streams, this.framePool, refs, source);
    } catch (err) {
      // Numbers it defined are never written: later records must define them again.
      refs.newEpoch();
      throw err;
    }
    refs.recordPending(epoch);
    let write: Promise<void>;
    // Whether the writer took the frame (it then hands it back to the pool itself).
    let written = false;
    if (!this.writer) {
      write = Promise.reject(new WalWriteError('write-ahead log is not open'));
    } else if (this.lockLost !== null) {
      write = Promise.reject(new WalWriteError(`WAL directory lock lost: ${this.lockLost}`));
    } else {
      write = this.writer.append(frame);
      written = true;
    }
    this.pending.add(write);
    // These are the first handlers on the record's promise: `undo` runs before the caller's,
    // and before the writer hands the frame back to its pool (it does so after a failed
    // write's clean-up, which awaits the disk).
    write.then(
      () => {
        refs.recordSettled(epoch);
        this.settle(seq, write);
      },
      () => {
        this.failures++;
        refs.newEpoch();
        // The record names streams by numbers of its epoch, kept until it settles.
        const names: SeriesNames = { get: (ref) => refs.labelsOf(epoch, ref), set: () => {} };
        try {
          undo?.(decodePushRecord(frame.subarray(FRAME_HEADER_SIZE), names).streams);
        } finally {
          if (!written) this.framePool.release(frame);
          refs.recordSettled(epoch);
          this.settle(seq, write);
        }
      },
    );
    return write;
  }

  private settle(seq: number, write: Promise<void>): void {
    this.pending.delete(write);
    this.settledAhead.add(seq);
    while (this.settledAhead.delete(this.settled + 1)) this.settled++;
  }

  /**
   * Resolves once every record appended so far is on disk; rejects if one of them failed.
   * A push whose entries were all dropped as copies of entries still in flight waits on this
   * before it is acknowledged, since its entries are durable only through those records.
   */
  durable(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return Promise.all([...this.pending]).then(() => {});
  }

  /**
   * Writes a checkpoint: starts a new segment N, then writes the stream records `produce`
   * yields to `checkpoint.N` (temp file + fsync + rename), then deletes older checkpoints and
   * all segments below N. `produce` must describe every unflushed entry appended before it
   * runs, with per-stream marks for what it covers. Returns the bytes written, or null if a
   * checkpoint is already running.
   */
  async checkpoint(produce: () => AsyncIterable<Buffer>): Promise<number | null> {
    if (!this.writer) throw new WalWriteError('write-ahead log is not open');
    if (this.checkpointing) return null;
    this.checkpointing = true;
    const { dir, counters } = this.opts;
    let tmp: string | null = null;
    const failuresBefore = this.failures;
    try {
      const markerSeq = this.seq;
      // Records after the rotation land in segments the checkpoint keeps: they must not rely on
      // a definition in the segments it deletes.
      this.refs.newEpoch();
      const first = await this.writer.rotate();
      tmp = checkpointTempPath(dir, first);
      const fh = await (this.opts.fs ?? NODE_WAL_FS).open(tmp, 'w');
      let bytes = 0;
      let streams = 0;
      try {
        let pending: Buffer[] = [encodeCheckpointHeader(first, markerSeq)];
        let pendingBytes = pending[0].length;
        const flush = async (): Promise<void> => {
          await writeFully(fh, pending, pendingBytes, bytes);
          bytes += pendingBytes;
          pending = [];
          pendingBytes = 0;
        };
        for await (const frame of produce()) {
          pending.push(frame);
          pendingBytes += frame.length;
          streams++;
          if (pendingBytes >= CHECKPOINT_WRITE_BATCH) await flush();
        }
        const end = encodeCheckpointEnd(streams);
        pending.push(end);
        pendingBytes += end.length;
        await flush();
        await fh.datasync();
      } finally {
        await fh.close();
      }
      // A record that failed after its stream was written here had its entries taken back out
      // of memory, but not out of this checkpoint: such a checkpoint must not replace the log.
      await this.durable().catch(() => {});
      if (this.failures !== failuresBefore) {
        throw new WalWriteError('a WAL write failed while the checkpoint was taken; discarded');
      }
      await rename(tmp, checkpointPath(dir, first));
      tmp = null;
      await fsyncDir(dir);
      await this.removeCoveredFiles(first);
      counters.wal_checkpoints_total++;
      counters.wal_checkpoint_bytes = bytes;
      this.opts.logger.info({ segment: first, streams, bytes }, 'WAL checkpoint written');
      return bytes;
    } catch (err) {
      counters.wal_checkpoint_failures_total++;
      // A failed checkpoint (a full disk) leaves no partial file behind; the segments it
      // would have replaced are all still there.
      if (tmp !== null) await rm(tmp, { force: true }).catch(() => {});
      throw err;
    } finally {
      this.checkpointing = false;
    }
  }

  /** Waits until every appended record is on disk and closes the segment file. */
  async close(): Promise<void> {
    const w = this.writer;
    this.writer = null;
    if (w) await w.close();
    const lock = this.lock;
    this.lock = null;
    if (lock) await lock.release();
  }

  private async removeCoveredFiles(first: number): Promise<void> {
    const listing = await listWalDir(this.opts.dir);
    for (const c of listing.checkpoints) {
      if (c < first) await rm(checkpointPath(this.opts.dir, c), { force: true });
    }
    for (const s of listing.segments) {
      if (s < first) await rm(segmentPath(this.opts.dir, s), { force: true });
    }
  }

  private async loadCheckpoint(index: number, target: ReplayTarget): Promise<number> {
    const path = checkpointPath(this.opts.dir, index);
    const buf = await readFile(path);
    let pos = 0;
    let streams = 0;
    let sawHeader = false;
    for (;;) {
      const frame = readFrame(buf, pos);
      if (frame === null) break;
      if ('problem' in frame) throw new WalCorruptionError(`checkpoint ${path}: ${frame.problem}`);
      pos = frame.next;
      let rec;
      try {
        rec = decodeCheckpointRecord(frame.payload);
      } catch (err) {
        throw new WalCorruptionError(`checkpoint ${path}: ${(err as Error).message}`);
      }
      if (rec.type === RecordType.CheckpointHeader) {
        sawHeader = true;
        this.seq = Math.max(this.seq, rec.seq);
      } else if (rec.type !== RecordType.CheckpointEnd) {
        if (!sawHeader) throw new WalCorruptionError(`checkpoint ${path}: missing header`);
        this.seq = Math.max(this.seq, rec.stream.mark);
        target.restoreStream(rec.stream);
        if (++streams % REPLAY_YIELD_EVERY === 0) await yieldToLoop();
      } else {
        if (rec.streamCount !== streams) {
          throw new WalCorruptionError(`checkpoint ${path}: stream count mismatch`);
        }
        return streams;
      }
    }
    throw new WalCorruptionError(`checkpoint ${path}: end record missing`);
  }

  private async replaySegment(
    index: number,
    target: ReplayTarget,
    names: ReplayNames,
  ): Promise<number> {
    const path = segmentPath(this.opts.dir, index);
    const buf = await readFile(path);
    let pos = 0;
    let records = 0;
    for (;;) {
      const frame = readFrame(buf, pos);
      if (frame === null) return records;
      let problem = '';
      if ('problem' in frame) {
        problem = frame.problem;
      } else {
        let rec: DecodedPush | null = null;
        try {
          rec = decodePushRecord(frame.payload, names);
        } catch (err) {
          problem = `undecodable record at byte ${pos}: ${(err as Error).message}`;
        }
        if (rec) {
          names.unknown += rec.unknownSeries;
          this.seq = Math.max(this.seq, rec.seq + 1);
          target.replayPush(rec.seq, rec.tenant, rec.streams);
          pos = frame.next;
          if (++records % REPLAY_YIELD_EVERY === 0) await yieldToLoop();
          continue;
        }
      }
      this.opts.counters.wal_corruptions_total++;
      this.opts.logger.warn(
        { segment: path, offset: pos, size: buf.length, problem },
        'WAL segment ends in a torn or corrupt record; truncating it there',
      );
      await truncate(path, pos);
      return records;
    }
  }
}

/** Series numbers defined so far in a replay, and the highest seen. */
class ReplayNames implements SeriesNames {
  private readonly texts = new Map<number, string>();
  maxRef = -1;
  /** Streams skipped because their number was never defined. */
  unknown = 0;

  get(ref: number): string | undefined {
    // A number used without its definition is taken too: the next run must not reuse it.
    if (ref > this.maxRef) this.maxRef = ref;
    return this.texts.get(ref);
  }

  set(ref: number, labelsText: string): void {
    this.texts.set(ref, labelsText);
    if (ref > this.maxRef) this.maxRef = ref;
  }
}
