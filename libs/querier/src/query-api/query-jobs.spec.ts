import type { Matcher, QueryResult } from '@logsvc/api';
import { LogsvcError } from '@logsvc/errors';
import { newQueryStats } from '@logsvc/logql';
import { decodeQueryAnswer, type QueryJob, type SubQuery } from '@logsvc/query-codec';
import { describe, expect, it } from 'vitest';
import type { Querier } from '../querier';
import type { QueryRequest } from '../query-executor';
import { queryJobRunner } from './query-jobs';
import { ReadApi } from './read-api';

const NOW = 1_700_000_000_000_000_000n;
const never = new AbortController().signal;

/** A querier answering label names with the matchers and range it was asked for. */
function fakeQuerier(calls: unknown[]): Querier {
  return {
    labelNames: async (
      tenants: readonly string[],
      fromNs: bigint,
      throughNs: bigint,
      matchers: readonly Matcher[],
    ) => {
      calls.push({ tenants, fromNs, throughNs, matchers });
      return ['app', 'level'];
    },
    labelValues: async () => [],
  } as unknown as Querier;
}

const read = (
  kind: 'labels' | 'label_values' | 'patterns',
  params: [string, string][],
): QueryJob => ({
  kind,
  tenants: ['acme'],
  params,
  name: kind === 'label_values' ? 'app' : '',
  legacy: false,
});

describe('queryJobRunner: a querier worker on the querier library', () => {
  it('runs a sub-query as the frontend made it and answers the JSON the frontend decodes', async () => {
    const result: QueryResult = { type: 'scalar', timestampMs: 1_700_000_000_000, value: 2.5 };
    const seen: QueryRequest[] = [];
    const run = queryJobRunner({
      runQuery: async (request) => {
        seen.push(request);
        const stats = newQueryStats();
        stats.summary.totalEntriesReturned = 4;
        return { resultType: result.type, result, stats };
      },
      read: new ReadApi(fakeQuerier([]), null, () => NOW),
    });
    const sub: SubQuery = {
      kind: 'instant',
      query: 'vector(2.5)',
      startNs: NOW,
      endNs: NOW,
      stepNs: 0n,
      intervalNs: 0n,
      limit: 100,
      direction: 'backward',
      tenants: ['a', 'b'],
      shard: { index: 1, of: 4 },
    };
    const answer = await run('a|b', { kind: 'sub_query', query: sub }, never);
    expect(answer.status).toBe(200);
    expect(decodeQueryAnswer(answer.status, answer.body).result).toEqual(result);
    expect(seen).toEqual([{ ...sub, categorizeLabels: false, clientSignal: never }]);
  });

  it('parses a read job as the HTTP route does: first value of a parameter, default range', async () => {
    const calls: unknown[] = [];
    const run = queryJobRunner({
      runQuery: () => Promise.reject(new Error('not a query')),
      read: new ReadApi(fakeQuerier(calls), null, () => NOW),
    });
    const answer = await run(
      'acme',
      read('labels', [
        ['query', '{app="api"}'],
        ['query', '{app="ignored"}'],
      ]),
      never,
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString())).toEqual({
      status: 'success',
      data: ['app', 'level'],
    });
    expect(calls).toEqual([
      {
        tenants: ['acme'],
        fromNs: NOW - 6n * 3600n * 1_000_000_000n,
        throughNs: NOW,
        matchers: [{ type: '=', name: 'app', value: 'api' }],
      },
    ]);
    const empty = await run('acme', read('label_values', []), never);
    expect(empty.body.toString()).toBe('{"status":"success"}');
  });

  it("answers a bad parameter 400 with Loki's text, and patterns' errors with a newline", async () => {
    const run = queryJobRunner({
      runQuery: () => Promise.reject(new Error('not a query')),
      read: new ReadApi(fakeQuerier([]), null, () => NOW),
    });
    const bad = await run('acme', read('labels', [['start', 'yesterday']]), never);
    expect(bad.status).toBe(400);
    expect(bad.body.toString()).toMatch(/^could not parse 'start' parameter: /);
    expect(bad.body.toString()).not.toMatch(/\n$/);
    // No pattern querier: Loki's 404 with an empty message, and Go's http.Error newline.
    const none = await run('acme', read('patterns', []), never);
    expect(none).toMatchObject({ status: 404 });
    expect(none.body.toString()).toBe('\n');
  });

  it('answers a query error with its status, and an unexpected failure 500', async () => {
    const failures: unknown[] = [];
    const sub: SubQuery = {
      kind: 'range',
      query: '{a="b"}',
      startNs: 0n,
      endNs: 1n,
      stepNs: 1n,
      intervalNs: 0n,
      limit: 1,
      direction: 'forward',
      tenants: ['t'],
    };
    let error: Error = new LogsvcError('bad_request', 'max entries limit per query exceeded');
    const run = queryJobRunner({
      runQuery: () => Promise.reject(error),
      read: new ReadApi(fakeQuerier([]), null, () => NOW),
      onError: (err) => failures.push(err),
    });
    const limited = await run('t', { kind: 'sub_query', query: sub }, never);
    expect(limited.status).toBe(400);
    expect(() => decodeQueryAnswer(limited.status, limited.body)).toThrow(
      expect.objectContaining({ message: 'max entries limit per query exceeded' }),
    );
    error = new TypeError('boom');
    const broken = await run('t', { kind: 'sub_query', query: sub }, never);
    expect(broken).toMatchObject({ status: 500 });
    expect(broken.body.toString()).toBe('internal server error\n');
    expect(failures).toEqual([error]);
  });
});
