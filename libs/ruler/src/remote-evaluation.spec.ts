import { describe, expect, it } from 'vitest';
import type { RemoteEvaluationOutcome } from './metrics';
import { type RemoteAnswer, type RemoteRequest, remoteQueryFn } from './remote-evaluation';

const LIMITS = { timeoutMs: 5_000, maxResponseSize: 0 };
const TS = Date.UTC(2026, 10, 29, 12, 0, 0, 120);

function answering(status: number, body: unknown, seen: RemoteRequest[] = []) {
  return remoteQueryFn(
    async (_tenant, request) => {
      seen.push(request);
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      return { status, body: Buffer.from(text) } satisfies RemoteAnswer;
    },
    () => LIMITS,
  );
}

describe('remoteQueryFn (ruler.evaluation.mode: remote)', () => {
  it('POSTs an instant query to /loki/api/v1/query as Loki’s ruler does, and reads a vector', async () => {
    const seen: RemoteRequest[] = [];
    const query = answering(
      200,
      {
        status: 'success',
        data: {
          resultType: 'vector',
          result: [
            { metric: { app: 'api' }, value: [1764417600.12, '4'] },
            { metric: { app: 'web' }, value: [1764417600.12, '+Inf'] },
          ],
        },
      },
      seen,
    );
    expect(await query('team-a', 'sum by (app) (count_over_time({app=~".+"}[1m]))', TS)).toEqual([
      { labels: { app: 'api' }, value: 4 },
      { labels: { app: 'web' }, value: Infinity },
    ]);
    const [request] = seen;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/loki/api/v1/query');
    expect(request.headers['X-Scope-OrgID']).toBe('team-a');
    expect(request.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(request.body.toString()).toBe(
      'direction=forward&query=sum+by+%28app%29+%28count_over_time%28%7Bapp%3D%7E%22.%2B%22%7D%5B1m%5D%29%29&time=2026-11-29T12%3A00%3A00.12Z',
    );
  });

  it('reads a scalar as one sample without labels', async () => {
    const query = answering(200, {
      status: 'success',
      data: { resultType: 'scalar', result: [1764417600, '2.5'] },
    });
    expect(await query('t', '2.5', TS)).toEqual([{ labels: {}, value: 2.5 }]);
  });

  it('fails with Loki’s texts on a non-2xx answer, bad JSON, an error status and a log result', async () => {
    await expect(answering(400, 'parse error')('t', 'x', TS)).rejects.toThrow(
      'unsuccessful/unexpected response - status code 400',
    );
    await expect(answering(200, 'not json')('t', 'x', TS)).rejects.toThrow(
      /^unexpected body encoding, not valid JSON: .*, body: not json$/,
    );
    await expect(answering(200, { status: 'error' })('t', 'x', TS)).rejects.toThrow(
      'query response error: status "error", body: {"status":"error"}',
    );
    await expect(
      answering(200, { status: 'success', data: { resultType: 'streams', result: [] } })(
        't',
        'x',
        TS,
      ),
    ).rejects.toThrow('unsupported result type: "streams"');
  });

  it('refuses an answer at or over ruler_remote_evaluation_max_response_size', async () => {
    const body = JSON.stringify({ status: 'success', data: { resultType: 'vector', result: [] } });
    const query = remoteQueryFn(
      async () => ({ status: 200, body: Buffer.from(body) }),
      () => ({ timeoutMs: 5_000, maxResponseSize: body.length }),
    );
    await expect(query('t', 'x', TS)).rejects.toThrow(
      `${body.length} bytes exceeds response size limit of ${body.length} (defined by ruler_remote_evaluation_max_response_size)`,
    );
  });

  it('gives up at ruler_remote_evaluation_timeout, and names a transport failure', async () => {
    const slow = remoteQueryFn(
      (_tenant, _request, signal) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(new Error('context canceled'))),
        ),
      () => ({ timeoutMs: 50, maxResponseSize: 0 }),
    );
    await expect(slow('t', 'x', TS)).rejects.toThrow(
      'remote rule evaluation exceeded deadline of 0.050000s (defined by ruler_remote_evaluation_timeout): context deadline exceeded',
    );
    const down = remoteQueryFn(
      () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:9095')),
      () => LIMITS,
    );
    await expect(down('t', 'x', TS)).rejects.toThrow(
      'rule evaluation failed: connect ECONNREFUSED 127.0.0.1:9095',
    );
  });

  it("reports Loki's remote evaluation metrics: duration, bytes, samples, success or the reason", async () => {
    const reported: RemoteEvaluationOutcome[] = [];
    const metrics = {
      remoteEvaluated: (_t: string, o: RemoteEvaluationOutcome) => reported.push(o),
    };
    const vector = JSON.stringify({
      status: 'success',
      data: { resultType: 'vector', result: [{ metric: {}, value: [1, '1'] }] },
    });
    const answer = (status: number) =>
      remoteQueryFn(
        async () => ({ status, body: Buffer.from(vector) }),
        () => LIMITS,
        metrics,
      );
    await answer(200)('t', 'x', TS);
    await expect(answer(503)('t', 'x', TS)).rejects.toThrow('status code 503');
    const small = remoteQueryFn(
      async () => ({ status: 200, body: Buffer.from(vector) }),
      () => ({ timeoutMs: 5_000, maxResponseSize: 10 }),
      metrics,
    );
    await expect(small('t', 'x', TS)).rejects.toThrow('exceeds response size limit');
    const down = remoteQueryFn(
      () => Promise.reject(new Error('refused')),
      () => LIMITS,
      metrics,
    );
    await expect(down('t', 'x', TS)).rejects.toThrow('rule evaluation failed');
    expect(
      reported.map(({ seconds, ...rest }) => ({ timed: seconds !== undefined, ...rest })),
    ).toEqual([
      { timed: true, bytes: vector.length, result: 'success' },
      { timed: false, samples: 1 },
      { timed: true, bytes: vector.length, result: 'upstream_error' },
      { timed: true, bytes: vector.length, result: 'max_size' },
      { timed: true, result: 'error' },
    ]);
  });
});
