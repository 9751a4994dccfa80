/**
 * `bench:query --frontend`: on flushed data, restarts the server store-only once per mode and
 * round (interleaved: main, one, two, warm, main, …) and times the frontend's metric queries.
 */
import { loadavg } from 'node:os';
import type { BenchServer } from '../bench-server';
import { cpuSeconds } from '../proc-stat';
import { FRONTEND_MODES, type FrontendMode } from './frontend-modes';
import type { ModeQuery, ModeRun } from './frontend-report';
import type { QueryBenchOptions } from './options';
import type { QuerySpec } from './queries';
import { runQuery, type QueryRun } from './run-query';

export interface FrontendRunContext {
  readonly options: QueryBenchOptions;
  readonly tenant: string;
  readonly specs: readonly QuerySpec[];
  /** Starts the server store-only on the flushed data with `flags` added (on one CPU). */
  start(flags: readonly string[], oneCpu: boolean): Promise<BenchServer>;
  /** Called with every server started, so the caller can stop it if a run fails. */
  onStarted(server: BenchServer): void;
}

/**
 * Uncached modes: one untimed run (JIT, page cache, worker threads started), then the timed
 * runs. Cached modes: the first run is the cold one (it fills the cache, recorded as `cold`),
 * then the timed runs are answered from the cache.
 */
async function timeQuery(
  server: BenchServer,
  mode: FrontendMode,
  spec: QuerySpec,
  c: FrontendRunContext,
): Promise<ModeQuery> {
  const copies = mode.copies ?? 1;
  // The untimed first run, every copy of it; for a cached mode, the cold one.
  const first = await copiesAtOnce(server, copies, spec, c);
  const runs: QueryRun[] = [];
  const deadline = performance.now() + c.options.queryBudgetMs;
  for (let i = 0; i < c.options.runs && performance.now() < deadline; i++)
    runs.push(...(await copiesAtOnce(server, copies, spec, c)));
  return mode.cached ? { spec, cold: first[0], runs } : { spec, runs };
}

/**
 * `copies` of the query sent at once (one: `timedRun`); each run gets an equal share of the
 * server's CPU time over them all.
 */
async function copiesAtOnce(
  server: BenchServer,
  copies: number,
  spec: QuerySpec,
  c: FrontendRunContext,
): Promise<QueryRun[]> {
  const cpuBefore = cpuSeconds(server.pid);
  const runs = await Promise.all(
    Array.from({ length: copies }, () => runQuery({ url: server.url, tenant: c.tenant }, spec)),
  );
  const cpuAfter = cpuSeconds(server.pid);
  const share =
    cpuBefore !== undefined && cpuAfter !== undefined ? (cpuAfter - cpuBefore) / copies : undefined;
  return runs.map((run) => ({ ...run, cpuSeconds: share }));
}

async function runMode(mode: FrontendMode, round: number, c: FrontendRunContext) {
  const loadAverage = loadavg()[0];
  const server = await c.start(mode.flags, mode.oneCpu);
  c.onStarted(server);
  const queries: ModeQuery[] = [];
  try {
    for (const spec of c.specs) {
      process.stderr.write(`round ${round}, ${mode.label}: timing ${spec.name} …\n`);
      try {
        queries.push(await timeQuery(server, mode, spec, c));
      } catch (err) {
        const tail = server.running
          ? ''
          : `\nthe server exited; its last output:\n${server.stderr()}`;
        throw new Error(`${(err as Error).message}${tail}`);
      }
    }
  } finally {
    await server.stop(120_000);
    await server.dispose();
  }
  return { mode: mode.name, round, loadAverage, queries } satisfies ModeRun;
}

/** Every round of every mode of `c.options.modes`, in order. */
export async function runFrontendModes(c: FrontendRunContext): Promise<ModeRun[]> {
  const runs: ModeRun[] = [];
  for (let round = 1; round <= c.options.rounds; round++)
    for (const name of c.options.modes) runs.push(await runMode(FRONTEND_MODES[name], round, c));
  return runs;
}
