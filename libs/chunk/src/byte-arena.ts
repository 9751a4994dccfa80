const INITIAL_BYTES = 4096;

/**
 * A growable scratch area that line bytes are copied into while a cursor needs them beyond
 * the source cursor's next step. Growing moves on to a bigger buffer and leaves the old one
 * untouched, so a view or reference taken earlier keeps its bytes until `reset`.
 */
export class ByteArena {
  buf = Buffer.allocUnsafe(INITIAL_BYTES);
  used = 0;

  /** Starts over: bytes copied earlier may be overwritten from now on. */
  reset(): void {
    this.used = 0;
  }

  /** Copies `src` in; its bytes are then `buf[returned offset, used)` (read `buf` after). */
  copy(src: Uint8Array): number {
    const need = this.used + src.length;
    if (need > this.buf.length) {
      const bigger = Buffer.allocUnsafe(Math.max(need, this.buf.length * 2));
      this.buf.copy(bigger, 0, 0, this.used);
      this.buf = bigger;
    }
    const start = this.used;
    this.buf.set(src, start);
    this.used = need;
    return start;
  }
}
