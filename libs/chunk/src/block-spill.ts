import { closeSync, mkdirSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Bytes written to one spill file before the next one is started. */
const DEFAULT_SEGMENT_BYTES = 64 * 1024 * 1024;

/** What `BlockSpill.readTransient` reads into, grown to the largest block read on this thread. */
let scratch = Buffer.alloc(0);

/** Reads `out.length` bytes at `ref.offset` into `out`. */
function readFully(ref: SpilledBytes, out: Buffer): Buffer {
  let done = 0;
  while (done < out.length) {
    const n = readSync(ref.fd, out, done, out.length - done, ref.offset + done);
    if (n === 0) throw new Error('spilled chunk block is shorter than written');
    done += n;
  }
  return out;
}

/** One spill file: open, already unlinked, so its disk space goes with its last block. */
class SpillSegment {
  written = 0;
  /** Bytes of blocks written here that are still referenced. */
  live = 0;
  sealed = false;
  closed = false;

  constructor(readonly fd: number) {}

  release(bytes: number): void {
    this.live -= bytes;
    this.closeIfDone();
  }

  closeIfDone(): void {
    if (this.closed || !this.sealed || this.live > 0) return;
    this.closed = true;
    closeSync(this.fd);
  }
}

/**
 * Where spilled bytes are: a file descriptor of this process, so a worker thread reads them too.
 * Valid while the block that owns them is not garbage (its segment's file stays open).
 */
export interface SpilledBytes {
  readonly fd: number;
  readonly offset: number;
  readonly length: number;
}

/** Where a spilled block's bytes are, and the segment that holds them. */
export interface SpillRef extends SpilledBytes {
  readonly segment: SpillSegment;
}

/**
 * Compressed chunk blocks written out of the process's memory to local files, read back when a
 * reader needs them (from the page cache, usually). Cut blocks never change, so a block is
 * written once, after its compression. The files are unlinked as soon as they are opened:
 * nothing is left on disk after a crash (the WAL restores the chunks), and a file's space is
 * freed once the last block in it is garbage (a FinalizationRegistry counts them down).
 */
export class BlockSpill {
  private current: SpillSegment | null = null;
  private files = 0;
  private stopped = false;
  /** Bytes written since the spill was opened. */
  bytesWritten = 0;
  private readonly registry = new FinalizationRegistry<{ segment: SpillSegment; bytes: number }>(
    ({ segment, bytes }) => segment.release(bytes),
  );

  private constructor(
    private readonly dir: string,
    private readonly segmentBytes: number,
  ) {}

  /** A spill writing files in `dir` (made if missing). */
  static open(dir: string, segmentBytes = DEFAULT_SEGMENT_BYTES): BlockSpill {
    mkdirSync(dir, { recursive: true });
    return new BlockSpill(dir, segmentBytes);
  }

  /**
   * Writes `data` for `owner` (the block object that will hold the reference: when it is
   * garbage, the bytes are). Null when the spill is closed or the write failed: the caller
   * keeps the bytes in memory then.
   */
  write(data: Buffer, owner: object): SpillRef | null {
    if (this.stopped || data.length === 0) return null;
    try {
      const segment = this.segmentFor(data.length);
      const offset = segment.written;
      let done = 0;
      while (done < data.length) {
        done += writeSync(segment.fd, data, done, data.length - done, offset + done);
      }
      segment.written += data.length;
      segment.live += data.length;
      this.bytesWritten += data.length;
      this.registry.register(owner, { segment, bytes: data.length });
      return { segment, fd: segment.fd, offset, length: data.length };
    } catch {
      return null;
    }
  }

  /** The bytes of a spilled block (on any thread of this process: `ref.fd` is shared). */
  static read(ref: SpilledBytes): Buffer {
    return readFully(ref, Buffer.allocUnsafe(ref.length));
  }

  /**
   * The bytes of a spilled block in this thread's scratch buffer, valid until the next call on
   * the thread: for a reader that decompresses them at once. A scan reads every block of the
   * streams it selects, so a fresh buffer per block was memory the kernel zeroed for each read
   * and garbage the next collection walked.
   */
  static readTransient(ref: SpilledBytes): Buffer {
    if (scratch.length < ref.length) {
      scratch = Buffer.allocUnsafe(Math.max(ref.length, 2 * scratch.length));
    }
    return readFully(ref, scratch.subarray(0, ref.length));
  }

  /** Writes no more; files close once their blocks are garbage. */
  close(): void {
    this.stopped = true;
    const segment = this.current;
    this.current = null;
    if (segment !== null) {
      segment.sealed = true;
      segment.closeIfDone();
    }
  }

  private segmentFor(bytes: number): SpillSegment {
    const open = this.current;
    if (open !== null && open.written + bytes <= this.segmentBytes) return open;
    if (open !== null) {
      open.sealed = true;
      open.closeIfDone();
    }
    const path = join(this.dir, `${process.pid}-${this.files++}.spill`);
    const fd = openSync(path, 'w+', 0o600);
    unlinkSync(path);
    const segment = new SpillSegment(fd);
    this.current = segment;
    return segment;
  }
}
