import type { FileHandle } from 'node:fs/promises';
import type { SlabPool } from '@logsvc/chunk';
import { WalWriteError } from '../errors';
import type { IngesterCounters } from '../metrics';
import { fsyncDir, segmentPath } from './files';
import { NODE_WAL_FS, type WalFs } from './wal-fs';

interface RecordItem {
  readonly kind: 'record';
  readonly frame: Buffer;
  readonly resolve: () => void;
  readonly reject: (err: Error) => void;
}

interface RotateItem {
  readonly kind: 'rotate';
  readonly resolve: (segment: number) => void;
  readonly reject: (err: Error) => void;
}

type QueueItem = RecordItem | RotateItem;

/**
 * Appends framed records to numbered segment files with group commit: while one write +
 * fdatasync is in flight, new records queue up and go out together in the next one. Each
 * append's promise settles only after its bytes are on disk, so a caller that acknowledges
 * after it never loses an acknowledged record to a crash.
 */
export class SegmentWriter {
  private readonly queue: QueueItem[] = [];
  private running = false;
  private idle: Promise<void> = Promise.resolve();
  private markIdle: () => void = () => {};
  private fh: FileHandle | null = null;
  private size = 0;
  private closed = false;

  private constructor(
    private readonly dir: string,
    private index: number,
    private readonly segmentSize: number,
    private readonly counters: IngesterCounters,
    private readonly framePool: SlabPool | undefined,
    private readonly fs: WalFs,
    private readonly onWriteFailure: () => void,
  ) {}

  /**
   * Creates segment `index` (which must not exist yet) and returns a writer on it. Frames cut
   * from `framePool` are released to it once written (or failed). `onWriteFailure` runs when a
   * write fails, before any record is rejected (see `writeFrames`).
   */
  static async create(
    dir: string,
    index: number,
    segmentSize: number,
    counters: IngesterCounters,
    framePool?: SlabPool,
    fs: WalFs = NODE_WAL_FS,
    onWriteFailure: () => void = () => {},
  ): Promise<SegmentWriter> {
    const w = new SegmentWriter(dir, index, segmentSize, counters, framePool, fs, onWriteFailure);
    await w.openSegment(index);
    return w;
  }

  /** The segment records are currently appended to. */
  get currentSegment(): number {
    return this.index;
  }

  append(frame: Buffer): Promise<void> {
    if (this.closed) return Promise.reject(new WalWriteError('write-ahead log is closed'));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ kind: 'record', frame, resolve, reject });
      this.kick();
    });
  }

  /**
   * Starts a new segment once every record appended before this call is on disk. Resolves to
   * the new segment's number: all earlier records are in lower-numbered segments.
   */
  rotate(): Promise<number> {
    if (this.closed) return Promise.reject(new WalWriteError('write-ahead log is closed'));
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ kind: 'rotate', resolve, reject });
      this.kick();
    });
  }

  /** Waits for queued records, then closes the segment file. */
  async close(): Promise<void> {
    this.closed = true;
    await this.idle;
    const fh = this.fh;
    this.fh = null;
    if (fh) await fh.close();
  }

  private kick(): void {
    if (this.running) return;
    this.running = true;
    this.idle = new Promise((resolve) => (this.markIdle = resolve));
    void this.drain();
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        let n = 0;
        while (n < this.queue.length && this.queue[n].kind === 'record') n++;
        if (n > 0) {
          await this.writeBatch(this.queue.splice(0, n) as RecordItem[]);
        } else {
          const marker = this.queue.shift() as RotateItem;
          try {
            await this.startNextSegment();
            marker.resolve(this.index);
          } catch (err) {
            marker.reject(asWriteError(err, 'cannot start a new WAL segment'));
          }
        }
        if (this.size >= this.segmentSize) await this.startNextSegment().catch(() => {});
      }
    } finally {
      this.running = false;
      this.markIdle();
    }
  }

  private async writeBatch(batch: RecordItem[]): Promise<void> {
    const frames = batch.map((item) => item.frame);
    try {
      await this.writeFrames(batch, frames);
    } finally {
      if (this.framePool) for (const f of frames) this.framePool.release(f);
    }
  }

  private async writeFrames(batch: RecordItem[], frames: Buffer[]): Promise<void> {
    let total = 0;
    for (const f of frames) total += f.length;
    try {
      if (!this.fh) await this.openSegment(this.index + 1);
      const fh = this.fh as FileHandle;
      await writeFully(fh, frames, total, this.size);
      await fh.datasync();
    } catch (err) {
      const error = asWriteError(err, 'write-ahead log write failed');
      // Records queued behind this write were encoded before its failure was known: they may
      // name streams by series numbers only this write defined, so they fail with it. Records
      // appended from now on define their streams again (the hook starts a new epoch).
      this.onWriteFailure();
      for (const item of batch) item.reject(error);
      const behind = asWriteError(err, 'an earlier write-ahead log write failed');
      const dropped: Buffer[] = [];
      for (let i = 0; i < this.queue.length;) {
        const item = this.queue[i];
        if (item.kind !== 'record') {
          i++;
          continue;
        }
        this.queue.splice(i, 1);
        item.reject(behind);
        dropped.push(item.frame);
      }
      // As for the batch's frames (writeBatch): back to the pool only after the rejections'
      // first handlers, which decode them, have run.
      await this.discardPartialWrite();
      if (this.framePool) for (const f of dropped) this.framePool.release(f);
      return;
    }
    this.size += total;
    this.counters.wal_records += batch.length;
    this.counters.wal_bytes += total;
    this.counters.wal_fsyncs++;
    for (const item of batch) item.resolve();
  }

  /**
   * After a failed write the segment may end in part of a record. Cutting it back to the last
   * good record keeps the segment usable, so a full disk costs no new file per failed write
   * and writes resume in place once space returns. Only if that cut fails do later records go
   * to a fresh segment (opened by the next write), so that replay, which stops a segment at
   * its first bad frame, still finds them.
   */
  private async discardPartialWrite(): Promise<void> {
    const fh = this.fh;
    if (!fh) return;
    try {
      await fh.truncate(this.size);
    } catch {
      this.fh = null;
      await fh.close().catch(() => {});
    }
  }

  private async startNextSegment(): Promise<void> {
    const old = this.fh;
    this.fh = null;
    if (old) await old.close().catch(() => {});
    await this.openSegment(this.index + 1);
  }

  private async openSegment(index: number): Promise<void> {
    this.index = index;
    this.fh = await this.fs.open(segmentPath(this.dir, index), 'wx');
    this.size = 0;
    await fsyncDir(this.dir);
    this.counters.wal_segments_created++;
  }
}

/** Writes `frames` (`total` bytes) at `position`, finishing any short write. */
export async function writeFully(
  fh: FileHandle,
  frames: Buffer[],
  total: number,
  position: number,
): Promise<void> {
  let { bytesWritten } = await fh.writev(frames, position);
  if (bytesWritten >= total) return;
  const rest = Buffer.concat(frames, total);
  while (bytesWritten < total) {
    const r = await fh.write(rest, bytesWritten, total - bytesWritten, position + bytesWritten);
    if (r.bytesWritten <= 0) throw new Error('short write to WAL segment');
    bytesWritten += r.bytesWritten;
  }
}

function asWriteError(err: unknown, what: string): WalWriteError {
  const detail = err instanceof Error ? err.message : String(err);
  return new WalWriteError(`${what}: ${detail}`, { cause: err });
}
