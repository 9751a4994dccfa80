import type { Labels, LogEntry } from '@logsvc/api';
import { Drain, type DrainCounters } from './drain';
import type { DrainConfig } from './drain-config';
import { detectLogFormat, type LogFormat } from './log-format';
import type { PatternSeries } from './pattern-query';

const NS_PER_MS = 1_000_000n;

/**
 * One stream's patterns (Loki's pattern stream): its lines go through a Drain whose tokenizer
 * fits the format of the stream's first line. Entries older than the last one counted are
 * skipped, as in Loki.
 */
export class PatternStream {
  readonly format: LogFormat;
  private readonly drain: Drain;
  private lastTsNs = -1n;

  constructor(
    readonly labels: Labels,
    firstLine: Buffer,
    config: DrainConfig,
    /** The counters of the stream's Drain, by the format found (Loki labels them with it). */
    countersFor?: (format: LogFormat) => DrainCounters | undefined,
    now?: () => number,
  ) {
    this.format = detectLogFormat(firstLine.toString('utf8'));
    this.drain = new Drain(this.format, config, countersFor?.(this.format), now);
  }

  push(entries: readonly LogEntry[]): void {
    for (const e of entries) {
      if (e.timestampNs < this.lastTsNs) continue;
      this.lastTsNs = e.timestampNs;
      this.drain.train(e.line, Number(e.timestampNs / NS_PER_MS));
    }
  }

  /** Each pattern's samples in [fromMs, throughMs) per step; empty patterns left out. */
  series(fromMs: number, throughMs: number, stepMs: number): PatternSeries[] {
    const out: PatternSeries[] = [];
    for (const cluster of this.drain.allClusters()) {
      const pattern = cluster.pattern();
      if (pattern === '') continue;
      const samples = cluster.samples.forRange(fromMs, throughMs, stepMs);
      if (samples.length > 0) out.push({ pattern, samples });
    }
    return out;
  }

  /**
   * Drops samples older than `retainMs` and the patterns left without any; true when the
   * stream has no pattern left.
   */
  prune(nowMs: number, retainMs: number): boolean {
    for (const cluster of this.drain.allClusters()) {
      cluster.prune(nowMs, retainMs);
      if (cluster.size === 0) this.drain.delete(cluster);
    }
    this.drain.pruneTree();
    return this.drain.clusterCount === 0;
  }

  get patternCount(): number {
    return this.drain.clusterCount;
  }

  /** Samples held over all patterns (what the memory bound is about). */
  sampleCount(): number {
    let n = 0;
    for (const c of this.drain.allClusters()) n += c.samples.sampleCount();
    return n;
  }
}
