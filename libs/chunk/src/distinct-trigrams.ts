/**
 * The distinct 3-byte sequences (trigrams) of a byte range, each as `b0 << 16 | b1 << 8 | b2`:
 * what a block's token filter is built from. Every line byte passes through here when a block
 * is encoded, so the loop is shaped for speed (docs/storage.md, Token filter):
 *
 * - Eight trigrams per iteration from four overlapping little-endian 32-bit reads: the word at
 *   `i` holds the trigrams starting at `i` (its low 24 bits) and `i + 1` (its high 24 bits), so
 *   each trigram costs one mask or shift instead of a serial shift-or-mask chain per byte.
 * - The seen-set is one byte per possible trigram, indexed by the trigram's little-endian value
 *   (a bijection; turned into the `b0 << 16 | b1 << 8 | b2` form only for the few new ones): a
 *   byte test takes fewer instructions than a bit test, which made the build alone 7-20 %
 *   faster than with a bit per trigram (2 MiB) despite the larger table's extra cache misses.
 *   Of its 16 MiB only the pages trigrams land on become resident (936 KiB after the bench's
 *   mixed lines); the entries set are cleared one by one after each call.
 * - Each loop ends its function, and the few trigrams after the last full group of eight are
 *   done before the main loop: V8 optimizes a long loop mid-call (on-stack replacement), and
 *   code after it that had not run yet (no type feedback) deoptimized that code on every call.
 */

const TRIGRAMS = 1 << 24;

/**
 * The longest result scratch kept between calls (4 MiB; a 256 KB block needs 1 MiB). It is
 * sized for every trigram of the range being new, since a capacity test on each new trigram
 * cost the loop about 7 %.
 */
const KEPT_SCRATCH = 1 << 20;

/** One byte per possible trigram, all 0 between calls. */
const SEEN = new Uint8Array(TRIGRAMS);
let scratch = new Int32Array(0);

/**
 * The distinct trigrams of `bytes[from, to)` in no particular order, as a view that the next
 * call overwrites (copy what must outlive it).
 */
export function distinctTrigrams(bytes: Uint8Array, from: number, to: number): Int32Array {
  if (to - from < 3) return scratch.subarray(0, 0);
  const most = Math.min(to - from - 2, TRIGRAMS);
  let out = scratch;
  if (out.length < most) {
    out = new Int32Array(most);
    if (most <= KEPT_SCRATCH) scratch = out;
  }
  const n = collect(bytes, from, to, out);
  forget(out, n);
  return out.subarray(0, n);
}

/** Clears the `n` little-endian trigrams of `out` in `SEEN` and turns them into `b0 << 16 | …`. */
function forget(out: Int32Array, n: number): void {
  const seen = SEEN;
  for (let k = 0; k < n; k++) {
    const u = out[k];
    seen[u] = 0;
    out[k] = ((u & 0xff) << 16) | (u & 0xff00) | (u >>> 16);
  }
}

/**
 * Marks each trigram of `bytes[from, to)` (at least 3 bytes) in `SEEN` and appends the
 * unmarked ones, as little-endian values, to `out`; returns how many it appended.
 */
function collect(bytes: Uint8Array, from: number, to: number, out: Int32Array): number {
  // The module constant, not a parameter: measured about 5 % faster.
  const seen = SEEN;
  let n = 0;
  const starts = to - from - 2;
  const end = from + starts - (starts & 7);
  for (let i = end; i < to - 2; i++) {
    const u = bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16);
    if (seen[u] === 0) {
      seen[u] = 1;
      out[n++] = u;
    }
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = from; i < end; i += 8) {
    // The last read ends at i + 9 < end + 2 <= to.
    const x0 = view.getInt32(i, true);
    const x2 = view.getInt32(i + 2, true);
    const x4 = view.getInt32(i + 4, true);
    const x6 = view.getInt32(i + 6, true);
    let u = x0 & 0xffffff;
    if (seen[u] === 0) {
      seen[u] = 1;
      out[n++] = u;
    }
    u = x0 >>> 8;
    if (seen[u] === 0) {
      seen[u] = 1;
      out[n++] = u;
    }
    u = x2 & 0xffffff;
    if (seen[u] === 0) {
      seen[u] = 1;
      out[n++] = u;
    }
    u = x2 >>> 8;
    if (seen[u] === 0) {
      seen[u] = 1;
      out[n++] = u;
    }
    u = x4 & 0xffffff;
    if (seen[u] === 0) {
      seen[u] = 1;
      out[n++] = u;
    }
    u = x4 >>> 8;
    if (seen[u] === 0) {
      seen[u] = 1;
      out[n++] = u;
    }
    u = x6 & 0xffffff;
    if (seen[u] === 0) {
      seen[u] = 1;
      out[n++] = u;
    }
    u = x6 >>> 8;
    if (seen[u] === 0) {
      seen[u] = 1;
      out[n++] = u;
    }
  }
  return n;
}
