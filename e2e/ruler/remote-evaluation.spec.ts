// Remote rule evaluation (`ruler.evaluation.mode: remote`), as Loki's: a `-target=ruler`
// process sends its rules' queries to a query frontend over gRPC (`httpgrpc.HTTP/Handle`), and
// the frontend runs them on its querier. Separate processes on one etcd ring; the ruler's
// alert fires from the frontend's answers, and with the frontend gone its rules fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrpcHttpClient } from '@logsvc/rpc';
import { EtcdCluster, type Member, memberMetric } from '../support/cluster';
import { nowNs, pushOk } from '../support/loki-api';
import { eventually } from '../support/server';

const GROUP = `name: remote
interval: 1s
rules:
  - alert: RemoteErrors
    expr: sum by (app) (count_over_time({app="remote"} |= "error" [10m])) > 2
    labels:
      severity: page
`;

interface ApiAlert {
  labels: Record<string, string>;
  state: string;
  value: string;
}

interface ApiRule {
  name: string;
  health: string;
  lastError?: string;
}

async function firing(ruler: Member): Promise<ApiAlert[]> {
  const res = await fetch(`${ruler.process.url}/prometheus/api/v1/alerts`);
  const body = (await res.json()) as { data: { alerts: ApiAlert[] } };
  return body.data.alerts.filter((a) => a.state === 'firing');
}

async function rules(ruler: Member): Promise<ApiRule[]> {
  const res = await fetch(`${ruler.process.url}/prometheus/api/v1/rules`);
  const body = (await res.json()) as { data: { groups: { rules: ApiRule[] }[] } };
  return body.data.groups.flatMap((g) => g.rules);
}

/** Instant queries POSTed to the frontend's routes (`logsvc_requests_total`). */
async function frontendQueries(frontend: Member): Promise<number> {
  const labels = { method: 'POST', route: 'loki_api_v1_query', status_code: '200' };
  return (await memberMetric(frontend, 'logsvc_requests_total', labels)) ?? 0;
}

interface Answer {
  status: number;
  contentType: string | undefined;
  body: string;
}

/** A query answer's JSON without its timings (`stats`), which differ between two runs. */
function withoutStats(answer: Answer): Answer {
  if (answer.status !== 200) return answer;
  const body = JSON.stringify(JSON.parse(answer.body), (key, value: unknown) =>
    key === 'stats' ? undefined : value,
  );
  return { ...answer, body };
}

describe('remote rule evaluation through a query frontend', () => {
  let cluster: EtcdCluster;
  let write: Member;
  let frontend: Member;
  let ruler: Member;

  beforeAll(async () => {
    cluster = await EtcdCluster.start({
      replicationFactor: 1,
      config: {
        query_scheduler: { use_scheduler_ring: true },
        ruler: { evaluation_interval: '1s', poll_interval: '1s' },
      },
    });
    write = await cluster.add('write-1', 'write');
    await cluster.add('scheduler-1', 'query-scheduler');
    frontend = await cluster.add('frontend-1', 'query-frontend');
    await cluster.add('querier-1', 'querier');
    ruler = await cluster.add('ruler-1', 'ruler', {
      config: {
        ruler: {
          evaluation: {
            mode: 'remote',
            query_frontend: { address: `dns:///127.0.0.1:${frontend.grpcPort}` },
          },
        },
      },
    });
  }, 120_000);

  afterAll(() => cluster?.dispose());

  it('answers a carried request (httpgrpc.HTTP/Handle) as its HTTP routes answer it', async () => {
    const t = nowNs() - 30_000_000_000n;
    await pushOk(write.process.url, [
      { stream: { app: 'carried' }, values: [[String(t), 'level=info carried']] },
    ]);
    const client = new GrpcHttpClient(`127.0.0.1:${frontend.grpcPort}`);
    const start = String(t - 60_000_000_000n);
    const end = String(t + 60_000_000_000n);
    const form = new URLSearchParams({ query: 'count_over_time({app="carried"}[5m])', time: end });
    const requests: { method: 'GET' | 'POST'; url: string; body?: string }[] = [
      { method: 'POST', url: '/loki/api/v1/query', body: form.toString() },
      {
        method: 'GET',
        url: `/loki/api/v1/query_range?query={app="carried"}&start=${start}&end=${end}`,
      },
      { method: 'GET', url: `/api/prom/query?query={app="carried"}&start=${start}&end=${end}` },
      { method: 'GET', url: `/loki/api/v1/labels?start=${start}&end=${end}` },
      { method: 'GET', url: `/loki/api/v1/label/app/values?start=${start}&end=${end}` },
      { method: 'GET', url: '/loki/api/v1/query?query=sum(' },
      { method: 'GET', url: '/loki/api/v1/query_range?query={app="carried"}&step=-1' },
      { method: 'GET', url: '/loki/api/v1/series' },
      { method: 'GET', url: '/loki/api/v1/patterns?query={app="carried"}&start=x' },
    ];
    const statuses: number[] = [];
    try {
      for (const r of requests) {
        const headers: Record<string, string> = { 'X-Scope-OrgID': 'fake' };
        if (r.body !== undefined) headers['Content-Type'] = 'application/x-www-form-urlencoded';
        const url = r.url.replace(/[{}"=]/g, (c) => (c === '=' ? c : encodeURIComponent(c)));
        const http = await fetch(`${frontend.process.url}${url}`, {
          method: r.method,
          headers,
          ...(r.body === undefined ? {} : { body: r.body }),
        });
        const expected = withoutStats({
          status: http.status,
          contentType: http.headers.get('content-type') ?? undefined,
          body: await http.text(),
        });
        statuses.push(expected.status);
        const carried = await client.handle('fake', {
          method: r.method,
          url,
          headers,
          body: Buffer.from(r.body ?? ''),
        });
        expect(
          withoutStats({
            status: carried.status,
            contentType: carried.headers['content-type'],
            body: carried.body.toString('utf8'),
          }),
          `${r.method} ${url}`,
        ).toEqual(expected);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 400, 400, 400, 400]);
      // An unknown path: the 404 of Loki's router.
      const unknown = await client.handle('fake', {
        method: 'GET',
        url: '/no/such/path',
        headers: {},
        body: Buffer.alloc(0),
      });
      expect([unknown.status, unknown.body.toString('utf8')]).toEqual([
        404,
        '404 page not found\n',
      ]);
    } finally {
      client.close();
    }
  });

  it("fires an alert from the frontend's answers, and fails its rules without the frontend", async () => {
    const t = nowNs() - 60_000_000_000n;
    await pushOk(write.process.url, [
      {
        stream: { app: 'remote' },
        values: [0, 1, 2, 3].map((i) => [String(t + BigInt(i)), `level=error n=${i}`]),
      },
    ]);
    const before = await frontendQueries(frontend);
    const posted = await fetch(`${ruler.process.url}/loki/api/v1/rules/ns`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/yaml' },
      body: GROUP,
    });
    expect(posted.status).toBe(202);

    const alerts = await eventually(
      async () => {
        const list = await firing(ruler);
        return list.length > 0 ? list : undefined;
      },
      'the alert firing',
      20_000,
    );
    expect(alerts.map((a) => [a.labels.alertname, a.labels.app, Number(a.value)])).toEqual([
      ['RemoteErrors', 'remote', 4],
    ]);
    // The frontend answered them, and the ruler counted them as Loki's does.
    expect(await frontendQueries(frontend)).toBeGreaterThan(before);
    const user = { user: 'fake' };
    expect(await memberMetric(ruler, 'loki_ruler_remote_eval_success_total', user)).toBeGreaterThan(
      0,
    );
    expect(
      await memberMetric(ruler, 'loki_ruler_remote_eval_response_samples_count', user),
    ).toBeGreaterThan(0);

    await frontend.process.stop();
    const failed = await eventually(
      async () => {
        const [rule] = await rules(ruler);
        return rule?.health === 'err' ? rule : undefined;
      },
      'the rule failing',
      20_000,
    );
    expect(failed.lastError).toMatch(/^rule evaluation failed: /);
  });
});
