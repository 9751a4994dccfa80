import { labelsToString, matchesLabels, type PushStream } from '@logsvc/api';
import { DEFAULT_DRAIN_CONFIG, type DrainConfig } from './drain-config';
import type { DrainCounters } from './drain';
import type { LogFormat } from './log-format';
import type { PatternIngesterClient } from './pattern-client';
import { mergePatternSeries } from './pattern-merge';
import type { PatternQuery, PatternSeries } from './pattern-query';
import { PatternStream } from './pattern-stream';
import { SAMPLE_INTERVAL_MS } from './samples';

/** Loki's retainSampleFor: samples older than 3 hours are dropped at each sweep. */
export const RETAIN_SAMPLES_MS = 3 * 3_600_000;

/** Work done between two turns given to the event loop while training. */
const SLICE_MS = 5;

export interface PatternIngesterOptions {
  readonly drain?: DrainConfig;
  /**
   * Whether this instance owns a tenant's stream (in a cluster: the stream's token falls to it
   * in the pattern ring); streams it does not own are ignored, as in Loki. Default: all.
   */
  readonly owns?: (tenant: string, labelsText: string) => boolean;
  /** The counters of each stream's Drain (Loki's metrics, labelled by tenant and format). */
  readonly countersFor?: (tenant: string, format: LogFormat) => DrainCounters | undefined;
  /** Milliseconds clock; injectable for tests. */
  readonly now?: () => number;
}

/**
 * Loki's pattern ingester, in memory: per tenant and stream, a Drain of the stream's lines and
 * each pattern's counts per 10 s; `sweep` (every `flush_check_period`) drops what is older than
 * three hours and the streams left empty. Nothing is written to disk: a restart starts afresh.
 */
export class PatternIngester implements PatternIngesterClient {
  private readonly tenants = new Map<string, Map<string, PatternStream>>();
  private readonly drainConfig: DrainConfig;
  private readonly now: () => number;

  constructor(private readonly options: PatternIngesterOptions = {}) {
    this.drainConfig = options.drain ?? DEFAULT_DRAIN_CONFIG;
    this.now = options.now ?? Date.now;
  }

  async push(tenant: string, streams: readonly PushStream[]): Promise<void> {
    let streamsOf = this.tenants.get(tenant);
    if (streamsOf === undefined) this.tenants.set(tenant, (streamsOf = new Map()));
    const countersFor = this.options.countersFor;
    let sliceStart = performance.now();
    for (const s of streams) {
      if (s.entries.length === 0) continue;
      const labelsText = s.labelsText ?? labelsToString(s.labels);
      if (this.options.owns && !this.options.owns(tenant, labelsText)) continue;
      let stream = streamsOf.get(labelsText);
      if (stream === undefined) {
        stream = new PatternStream(
          s.labels,
          s.entries[0].line,
          this.drainConfig,
          countersFor && ((format) => countersFor(tenant, format)),
          this.now,
        );
        streamsOf.set(labelsText, stream);
      }
      stream.push(s.entries);
      if (performance.now() - sliceStart > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
  }

  /** The tenant's patterns over the streams the matchers select, summed per pattern. */
  async query(tenant: string, query: PatternQuery): Promise<PatternSeries[]> {
    const streams = this.tenants.get(tenant);
    if (streams === undefined) return [];
    const step = Math.max(query.stepMs, SAMPLE_INTERVAL_MS);
    const lists: PatternSeries[][] = [];
    for (const stream of streams.values()) {
      if (!matchesLabels(query.matchers, stream.labels)) continue;
      lists.push(stream.series(query.fromMs, query.throughMs, step));
    }
    return mergePatternSeries(lists);
  }

  /** Drops samples older than RETAIN_SAMPLES_MS, and the patterns and streams left empty. */
  sweep(): void {
    const nowMs = this.now();
    for (const [tenant, streams] of this.tenants) {
      for (const [key, stream] of streams) {
        if (stream.prune(nowMs, RETAIN_SAMPLES_MS)) streams.delete(key);
      }
      if (streams.size === 0) this.tenants.delete(tenant);
    }
  }

  /** Streams held, over all tenants. */
  get streamCount(): number {
    let n = 0;
    for (const streams of this.tenants.values()) n += streams.size;
    return n;
  }

  /** A stream's state, for tests and status. */
  stream(tenant: string, labelsText: string): PatternStream | undefined {
    return this.tenants.get(tenant)?.get(labelsText);
  }
}
