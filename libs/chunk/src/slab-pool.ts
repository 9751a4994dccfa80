/** Pieces larger than this fraction of a slab get a buffer of their own. */
const MAX_PIECE_FRACTION = 4;
/** Pieces start at multiples of 8 bytes, so typed-array views over them stay aligned. */
const ALIGN = 8;

interface Slab {
  readonly buf: Buffer;
  used: number;
  /** Pieces handed out and not yet released. */
  refs: number;
}

export interface SlabPoolOptions {
  /** Bytes per slab (default 4 MiB). */
  readonly slabSize?: number;
  /** Idle slabs kept for reuse; beyond this, released slabs are left to the GC (default 1). */
  readonly maxIdleSlabs?: number;
}

/**
 * Hands out short-lived Buffers cut from large slabs that are reused once every piece cut from
 * them is released. Push records, block payloads and the like live for a few milliseconds;
 * allocating each one anew makes V8 count hundreds of MB/s of external memory, and that
 * triggers a full mark-compact every ~64 MB. Reusing slabs keeps that count flat.
 *
 * A piece must be released exactly once and not used after; a piece that is never released
 * only keeps its slab from being reused (the slab is freed by the GC with its last view).
 */
export class SlabPool {
  private readonly slabSize: number;
  private readonly maxIdle: number;
  private current: Slab | null = null;
  private readonly idle: Slab[] = [];
  // Weak: a slab whose pieces were dropped without release must still be collectable.
  private readonly slabs = new WeakMap<ArrayBufferLike, Slab>();

  constructor(options: SlabPoolOptions = {}) {
    this.slabSize = options.slabSize ?? 4 * 1024 * 1024;
    this.maxIdle = options.maxIdleSlabs ?? 1;
  }

  /** A Buffer of exactly `size` bytes, uninitialised. */
  take(size: number): Buffer {
    if (size * MAX_PIECE_FRACTION > this.slabSize) return Buffer.allocUnsafeSlow(size);
    let slab = this.current;
    if (slab === null || slab.used + size > this.slabSize) {
      if (slab !== null && slab.refs === 0) this.retire(slab);
      slab = this.idle.pop() ?? this.newSlab();
      this.current = slab;
    }
    const start = slab.used;
    slab.used = start + ((size + ALIGN - 1) & ~(ALIGN - 1));
    slab.refs++;
    return slab.buf.subarray(start, start + size);
  }

  /** Gives a piece back; Buffers this pool did not hand out are ignored. */
  release(piece: Buffer): void {
    const slab = this.slabs.get(piece.buffer);
    if (slab === undefined || slab.refs === 0) return;
    slab.refs--;
    if (slab.refs > 0) return;
    if (slab === this.current) slab.used = 0;
    else this.retire(slab);
  }

  /** Whether `piece` was cut from one of this pool's slabs. */
  owns(piece: Buffer): boolean {
    return this.slabs.has(piece.buffer);
  }

  private retire(slab: Slab): void {
    slab.used = 0;
    if (this.idle.length < this.maxIdle) this.idle.push(slab);
    else this.slabs.delete(slab.buf.buffer);
  }

  private newSlab(): Slab {
    const slab: Slab = { buf: Buffer.allocUnsafeSlow(this.slabSize), used: 0, refs: 0 };
    this.slabs.set(slab.buf.buffer, slab);
    return slab;
  }
}
