/** One point of a pattern's series: a count of lines at a time (Unix milliseconds). */
export interface PatternSample {
  readonly timestampMs: number;
  readonly value: number;
}

/** Loki's sample interval: lines are counted per 10 s. */
export const SAMPLE_INTERVAL_MS = 10_000;
/** Loki's maxChunkTime: a chunk of samples spans at most one hour. */
const MAX_CHUNK_MS = 3_600_000;

const truncate = (ts: number, step: number) => ts - (ts % step);

interface MutableSample {
  timestampMs: number;
  value: number;
}

/**
 * A pattern's line counts per 10 s (Loki's drain Chunks): appended in time order, cut into
 * chunks of an hour so old ones can be dropped whole.
 */
export class SampleChunks {
  private chunks: MutableSample[][] = [];

  /** Counts one line at `tsMs`; a line older than the last counted one is ignored. */
  add(tsMs: number): void {
    const t = truncate(tsMs, SAMPLE_INTERVAL_MS);
    const last = this.chunks[this.chunks.length - 1];
    if (last === undefined) {
      this.chunks.push([{ timestampMs: t, value: 1 }]);
      return;
    }
    const lastSample = last[last.length - 1];
    if (lastSample.timestampMs === t) {
      lastSample.value++;
      return;
    }
    if (t - last[0].timestampMs >= MAX_CHUNK_MS) {
      this.chunks.push([{ timestampMs: t, value: 1 }]);
      return;
    }
    if (tsMs < lastSample.timestampMs) return;
    last.push({ timestampMs: t, value: 1 });
  }

  /**
   * Samples in [fromMs, throughMs), each chunk's re-cut into buckets of `stepMs` aligned to
   * the epoch (with zero buckets for the gaps inside a chunk), as Loki's Chunk.ForRange.
   */
  forRange(fromMs: number, throughMs: number, stepMs: number): PatternSample[] {
    const out: PatternSample[] = [];
    for (const chunk of this.chunks) out.push(...chunkRange(chunk, fromMs, throughMs, stepMs));
    return out;
  }

  /** Drops the chunks whose last sample is older than `olderThanMs` before `nowMs`. */
  prune(nowMs: number, olderThanMs: number): void {
    this.chunks = this.chunks.filter((c) => nowMs - c[c.length - 1].timestampMs <= olderThanMs);
  }

  /** Lines counted in the chunks kept. */
  size(): number {
    let n = 0;
    for (const c of this.chunks) for (const s of c) n += s.value;
    return n;
  }

  /** Samples held (for the memory bound). */
  sampleCount(): number {
    let n = 0;
    for (const c of this.chunks) n += c.length;
    return n;
  }
}

function lowerBound(samples: readonly PatternSample[], ts: number): number {
  let lo = 0;
  let hi = samples.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (samples[mid].timestampMs >= ts) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function chunkRange(
  samples: readonly PatternSample[],
  start: number,
  end: number,
  step: number,
): PatternSample[] {
  if (samples.length === 0) return [];
  const first = samples[0].timestampMs;
  const last = samples[samples.length - 1].timestampMs;
  if (start >= end || first >= end || last < start) return [];
  const lo = start > first ? lowerBound(samples, start) : 0;
  const hi = end < last ? lowerBound(samples, end) : samples.length;
  if (lo >= hi) return [];
  if (step === SAMPLE_INTERVAL_MS) return samples.slice(lo, hi).map((s) => ({ ...s }));
  let current = truncate(samples[lo].timestampMs, step);
  const out: MutableSample[] = [{ timestampMs: current, value: 0 }];
  for (let i = lo; i < hi; i++) {
    const s = samples[i];
    if (s.timestampMs >= current + step) {
      const bucket = truncate(s.timestampMs, step);
      for (let t = current + step; t <= bucket; t += step) out.push({ timestampMs: t, value: 0 });
      current = bucket;
    }
    out[out.length - 1].value += s.value;
  }
  return out;
}
