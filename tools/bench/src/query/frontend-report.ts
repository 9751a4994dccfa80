/** Summaries and the printed report of `bench:query --frontend`. */
import type { FrontendCounters } from './frontend-stats';
import { FRONTEND_MODES, type FrontendModeName } from './frontend-modes';
import type { QuerySpec } from './queries';
import { median } from './report';
import type { QueryRun } from './run-query';

/** One query timed in one mode: for a cached mode, `cold` is the run that filled the cache. */
export interface ModeQuery {
  readonly spec: QuerySpec;
  readonly cold?: QueryRun;
  readonly runs: readonly QueryRun[];
}

/** One server start in one mode, and every query timed on it. */
export interface ModeRun {
  readonly mode: FrontendModeName;
  /** 1-based. */
  readonly round: number;
  /** The machine's 1-minute load average when the server started. */
  readonly loadAverage: number;
  readonly queries: readonly ModeQuery[];
}

export interface FrontendBenchResult {
  readonly ingestedMB: number;
  readonly ingestedLines: number;
  readonly streams: number;
  readonly spanMinutes: number;
  /** How long before the first server start the data ends. */
  readonly endMinutesAgo: number;
  readonly cpus: number;
  readonly runs: readonly ModeRun[];
}

export interface ModeSummary {
  readonly mode: FrontendModeName;
  readonly runs: number;
  readonly medianMs: number;
  readonly minMs: number;
  /** MB (10⁶ bytes) of `totalBytesProcessed` per second of wall time, at the medians. */
  readonly mbPerSecond: number;
  /** Server CPU seconds (all threads) of a run, median. */
  readonly cpuSeconds: number | undefined;
  /** Server CPU over wall time (1.0 = one core busy), median. */
  readonly cores: number | undefined;
  /** The counters of the last timed run. */
  readonly counters: FrontendCounters | undefined;
  /** Cached modes: the latency of the run that filled the cache. */
  readonly coldMs: number | undefined;
}

export function summarizeMode(mode: FrontendModeName, q: ModeQuery): ModeSummary {
  const medianMs = median(q.runs.map((r) => r.wallMs));
  const bytes = median(q.runs.map((r) => r.bytesProcessed));
  const cpu = q.runs.filter((r) => r.cpuSeconds !== undefined);
  return {
    mode,
    runs: q.runs.length,
    medianMs,
    minMs: Math.min(...q.runs.map((r) => r.wallMs)),
    mbPerSecond: bytes / 1e6 / (medianMs / 1000),
    cpuSeconds: cpu.length > 0 ? median(cpu.map((r) => r.cpuSeconds!)) : undefined,
    cores: cpu.length > 0 ? median(cpu.map((r) => r.cpuSeconds! / (r.wallMs / 1000))) : undefined,
    counters: q.runs[q.runs.length - 1]?.frontend,
    coldMs: q.cold?.wallMs,
  };
}

/** How many times faster `faster` answered than `slower` (medians); undefined without both. */
export function speedUp(slower?: ModeSummary, faster?: ModeSummary): number | undefined {
  return slower && faster ? slower.medianMs / faster.medianMs : undefined;
}

/** Every mode's summary of the query named `name` in `round`. */
export function roundSummaries(
  result: FrontendBenchResult,
  round: number,
  name: string,
): Partial<Record<FrontendModeName, ModeSummary>> {
  const out: Partial<Record<FrontendModeName, ModeSummary>> = {};
  for (const run of result.runs.filter((r) => r.round === round)) {
    const q = run.queries.find((x) => x.spec.name === name);
    if (q && q.runs.length > 0) out[run.mode] = summarizeMode(run.mode, q);
  }
  return out;
}

function queryNames(result: FrontendBenchResult): string[] {
  return [...new Set(result.runs.flatMap((r) => r.queries.map((q) => q.spec.name)))];
}

function rounds(result: FrontendBenchResult): number[] {
  return [...new Set(result.runs.map((r) => r.round))].sort((a, b) => a - b);
}

function pad(text: string, width: number, right = true): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

const fixed = (n: number | undefined, digits: number): string =>
  n === undefined ? '-' : n.toFixed(digits);

/** /proc counts CPU in 10 ms ticks: over a shorter request, CPU over wall time is noise. */
const SHORTEST_FOR_CORES_MS = 200;

function modeRow(s: ModeSummary): string {
  const c = s.counters;
  const cache =
    c === undefined || c.cacheEntriesRequested === 0
      ? '-'
      : `${c.cacheEntriesFound}/${c.cacheEntriesRequested}`;
  const cached = FRONTEND_MODES[s.mode].cached;
  return [
    pad(FRONTEND_MODES[s.mode].label, 38, false),
    pad(String(s.runs), 4),
    pad(s.medianMs.toFixed(0), 9),
    pad(s.minMs.toFixed(0), 7),
    pad(cached ? '-' : s.mbPerSecond.toFixed(1), 7),
    pad(fixed(s.cpuSeconds, 2), 6),
    pad(s.medianMs < SHORTEST_FOR_CORES_MS ? '-' : fixed(s.cores, 2), 6),
    pad(c === undefined ? '-' : `${c.splits}/${c.shards}/${c.subqueries}`, 14),
    pad(cache, 12),
    pad(c === undefined ? '-' : String(c.chunksDownloaded), 7),
    pad(c === undefined ? '-' : (c.compressedBytes / 1e6).toFixed(0), 9),
    pad(s.coldMs === undefined ? '-' : s.coldMs.toFixed(0), 8),
  ].join(' ');
}

const HEADER = [
  pad('mode', 38, false),
  pad('runs', 4),
  pad('median ms', 9),
  pad('min ms', 7),
  pad('MB/s', 7),
  pad('CPU s', 6),
  pad('cores', 6),
  pad('spl/shd/subq', 14),
  pad('cache hits', 12),
  pad('chunks', 7),
  pad('chunk MB', 9),
  pad('cold ms', 8),
].join(' ');

/** "1.85×", or "-" when a mode is missing. */
const times = (x: number | undefined): string => (x === undefined ? '-' : `${x.toFixed(2)}×`);

function querySection(result: FrontendBenchResult, round: number, name: string): string[] {
  const s = roundSummaries(result, round, name);
  const spec = result.runs.flatMap((r) => r.queries).find((q) => q.spec.name === name)!.spec;
  const rows = Object.values(s).map(modeRow);
  return [
    `${name}: ${spec.query}`,
    HEADER,
    ...rows,
    `speed-up: two workers / one ${times(speedUp(s.one, s.two))}, ` +
      `two workers / one on one CPU ${times(speedUp(s.core, s.two))}, ` +
      `two workers / whole query on one CPU ${times(speedUp(s.whole, s.two))}, ` +
      `one worker / event loop ${times(speedUp(s.main, s.one))}, ` +
      `warm cache / two workers ${times(speedUp(s.two, s.warm))}`,
    ...pairLine(s),
    '',
  ];
}

/**
 * How much slower a whole query runs while another runs on the other CPU, and so the most two
 * workers can gain over the whole query alone: two halves, each slowed as much.
 */
function pairSlowdown(s: Partial<Record<FrontendModeName, ModeSummary>>): number | undefined {
  return s.pair && s.whole ? s.pair.medianMs / s.whole.medianMs : undefined;
}

function pairLine(s: Partial<Record<FrontendModeName, ModeSummary>>): string[] {
  const slowdown = pairSlowdown(s);
  if (slowdown === undefined) return [];
  return [
    `two whole queries at once: each ${times(slowdown)} the whole query alone on one CPU, ` +
      `so two workers can reach at most ${times(2 / slowdown)} of it`,
  ];
}

/** A query's speed-up of two workers over `base` in every round that ran both, in order. */
export function speedUpsOfTwo(
  result: FrontendBenchResult,
  name: string,
  base: FrontendModeName,
): number[] {
  return rounds(result)
    .map((round) => {
      const s = roundSummaries(result, round, name);
      return speedUp(s[base], s.two);
    })
    .filter((x): x is number => x !== undefined);
}

/** Over several rounds: each mode's median of its round medians, and every round's speed-up. */
function acrossRounds(result: FrontendBenchResult): string[] {
  const out = ['all rounds (median of the round medians, ms):'];
  for (const name of queryNames(result)) {
    const perMode = new Map<FrontendModeName, number[]>();
    for (const round of rounds(result))
      for (const s of Object.values(roundSummaries(result, round, name)))
        perMode.set(s.mode, [...(perMode.get(s.mode) ?? []), s.medianMs]);
    const modes = [...perMode].map(([mode, ms]) => `${mode} ${median(ms).toFixed(0)}`);
    const byRound = (base: FrontendModeName): string => {
      const ups = speedUpsOfTwo(result, name, base);
      return ups.length === 0 ? '' : `; two/${base} by round ${ups.map(times).join(' ')}`;
    };
    out.push(
      `  ${name}: ${modes.join(', ')}${byRound('one')}${byRound('core')}${byRound('whole')}`,
    );
  }
  return out;
}

export function formatFrontendReport(result: FrontendBenchResult): string {
  const out = [
    `data: ${result.ingestedMB.toFixed(0)} MB of lines, ${result.ingestedLines} lines, ` +
      `${result.streams} streams over ${result.spanMinutes} min ending ` +
      `${result.endMinutesAgo} min before the run; ${result.cpus} CPUs`,
    'every mode: flushed chunks, server restarted with -querier.query-store-only=true; ' +
      'query_range over the whole data, step 60 s',
    'MB/s: stats.summary.totalBytesProcessed over wall time (median run); CPU s / cores: the ' +
      'server process, all threads; spl/shd/subq: stats.summary splits/shards/subqueries; ' +
      'cache hits: stats.cache.result entriesFound/entriesRequested; chunks / chunk MB: ' +
      'chunks fetched and their compressed MB, summed over the sub-queries; cold ms: the run ' +
      'that filled the cache',
    '',
  ];
  for (const round of rounds(result)) {
    const loads = result.runs
      .filter((r) => r.round === round)
      .map((r) => `${r.mode} ${r.loadAverage.toFixed(1)}`);
    out.push(`round ${round} (load average at each start: ${loads.join(', ')})`, '');
    for (const name of queryNames(result)) out.push(...querySection(result, round, name));
  }
  if (rounds(result).length > 1) out.push(...acrossRounds(result), '');
  return out.join('\n');
}

/** The result as plain JSON: per round, mode and query the summary and every run. */
export function frontendJson(result: FrontendBenchResult): unknown {
  return {
    ingestedMB: result.ingestedMB,
    ingestedLines: result.ingestedLines,
    streams: result.streams,
    spanMinutes: result.spanMinutes,
    endMinutesAgo: result.endMinutesAgo,
    cpus: result.cpus,
    rounds: rounds(result).map((round) => ({
      round,
      queries: queryNames(result).map((name) => {
        const s = roundSummaries(result, round, name);
        return {
          name,
          speedUpTwoOverOne: speedUp(s.one, s.two) ?? null,
          speedUpTwoOverOneCpu: speedUp(s.core, s.two) ?? null,
          speedUpTwoOverWholeOnOneCpu: speedUp(s.whole, s.two) ?? null,
          speedUpOneOverEventLoop: speedUp(s.main, s.one) ?? null,
          modes: s,
        };
      }),
      modes: result.runs
        .filter((r) => r.round === round)
        .map((r) => ({
          mode: r.mode,
          flags: FRONTEND_MODES[r.mode].flags,
          oneCpu: FRONTEND_MODES[r.mode].oneCpu,
          loadAverage: r.loadAverage,
          queries: r.queries.map((q) => ({
            name: q.spec.name,
            query: q.spec.query,
            ...(q.cold ? { cold: q.cold } : {}),
            runs: q.runs,
          })),
        })),
    })),
  };
}
