/**
 * Every eval of the engine's conformance corpus, run through the query frontend (split into
 * many intervals, sharded, with the results cache cold and then warm), answers exactly what
 * the unsplit query answers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_LIMITS, Overrides, type TenantLimits } from '@logsvc/config';
import { type MemorySource, runQuery } from '@logsvc/logql';
import {
  CONFORMANCE_TESTDATA,
  EPOCH_NS,
  type FixtureEval,
  linesMatch,
  parseFixture,
  renderActual,
  sourceOf,
} from '@logsvc/logql/testing';
import { describe, expect, it } from 'vitest';
import { EmbeddedCache } from '@logsvc/storage';
import { ResultsCacheStore } from '../cache/results-cache';
import { memoryDownstream } from '../testing/memory-downstream';
import { AnswerCache, matrixCodec } from './answer-cache';
import { type FrontendQueryRequest, QueryFrontend } from './query-frontend';
import { alignStartEndToStep } from '../split/split';

const dir = CONFORMANCE_TESTDATA;
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.lqt'))
  .sort();

const limits: TenantLimits = {
  ...(DEFAULT_LIMITS as TenantLimits),
  split_queries_by_interval: 20_000,
  max_query_parallelism: 3,
  tsdb_max_query_parallelism: 4,
  max_cache_freshness_per_query: 0,
  max_query_length: 0,
};
const overrides = new Overrides(limits, { file: '', periodMs: 60_000 });
const FAR_FUTURE_NS = EPOCH_NS + 10n ** 15n;

function request(ev: FixtureEval): FrontendQueryRequest {
  const base = {
    query: ev.query,
    tenants: ['fake'],
    clientSignal: new AbortController().signal,
    intervalNs: 0n,
    categorizeLabels: false,
    limit: 100,
    direction: 'backward' as const,
    stepNs: 0n,
  };
  switch (ev.kind) {
    case 'instant':
      return { ...base, kind: 'instant', startNs: EPOCH_NS + ev.atNs, endNs: EPOCH_NS + ev.atNs };
    case 'range':
      return {
        ...base,
        kind: 'range',
        startNs: EPOCH_NS + ev.fromNs,
        endNs: EPOCH_NS + ev.toNs,
        stepNs: ev.stepNs,
      };
    case 'logs':
      return {
        ...base,
        kind: 'range',
        startNs: EPOCH_NS + ev.fromNs,
        endNs: EPOCH_NS + ev.toNs,
        limit: ev.limit,
        direction: ev.direction,
        intervalNs: ev.intervalNs,
        categorizeLabels: ev.categorized,
      };
  }
}

/** The unsplit, unsharded answer over the range the frontend evaluates (aligned to the step). */
async function reference(ev: FixtureEval, source: MemorySource) {
  const req = request(ev);
  const aligned =
    ev.kind === 'range' && !/^\s*\{/.test(ev.query) && req.stepNs > 0n
      ? alignStartEndToStep(req.stepNs, req.startNs, req.endNs)
      : { startNs: req.startNs, endNs: req.endNs };
  try {
    const { result } = await runQuery({
      query: req.query,
      kind: req.kind,
      startNs: aligned.startNs,
      endNs: aligned.endNs,
      stepMs: Number(req.stepNs) / 1e6,
      intervalMs: Number(req.intervalNs) / 1e6,
      limit: req.limit,
      direction: req.direction,
      tenants: 'fake',
      source,
      categorizeLabels: req.categorizeLabels,
    });
    return result;
  } catch (e) {
    return e as Error;
  }
}

async function throughFrontend(frontend: QueryFrontend, ev: FixtureEval) {
  try {
    return (await frontend.query(request(ev))).result;
  } catch (e) {
    return e as Error;
  }
}

describe.each(files)('%s through the frontend', (file) => {
  const scenarios = parseFixture(file, readFileSync(join(dir, file), 'utf8'));
  describe.each(scenarios.map((s, i) => ({ ...s, name: `#${i + 1} ${s.title}` })))(
    '$name',
    (scenario) => {
      const source = sourceOf(scenario.entries);
      // As a cluster's frontend sends splits, and as the single binary's runs touching ones.
      const frontends = [false, true].map(
        (coalesceSplits) =>
          new QueryFrontend({
            downstream: memoryDownstream(source),
            overrides,
            now: () => FAR_FUTURE_NS,
            sharding: true,
            cache: new AnswerCache(new ResultsCacheStore(new EmbeddedCache(), matrixCodec())),
            coalesceSplits,
            parallelism: { workers: 2, minBytesPerShard: 1 },
          }),
      );
      it.each(scenario.evals.map((ev) => ({ ...ev, name: `line ${ev.lineNo}: ${ev.query}` })))(
        '$name',
        async (ev) => {
          const expected = renderActual(ev, await reference(ev, source));
          for (const [frontend, pass] of frontends.flatMap((f, i) =>
            ['cold', 'warm'].map((p) => [f, `${i === 1 ? 'coalesced, ' : ''}${p}`] as const),
          )) {
            const actual = renderActual(ev, await throughFrontend(frontend, ev));
            const same =
              expected.length === actual.length &&
              expected.every((line, i) => linesMatch(line, actual[i]!));
            expect(
              same,
              `${pass}: unsplit:\n${expected.join('\n')}\nthrough the frontend:\n${actual.join('\n')}\n`,
            ).toBe(true);
          }
        },
      );
    },
  );
});
