// One query or one rule group must not take a process's memory (issue 43, findings 1 and 2): a
// log query whose `line_format` makes every line a megabyte, with `limit=5000`, and a recording
// rule whose `label_format` makes every line its own half-megabyte series, against the built
// single binary. Each fails on `limits_config.max_query_memory_bytes` (default 256MiB) with a
// 400 naming it; the process stays up, answers /ready, and its peak RSS (VmHWM) stays bounded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushOk } from '../support/loki-api';
import { type ServerProcess, eventually, startServer } from '../support/server';

const MiB = 1024 * 1024;
/**
 * Peak RSS allowed over the test: the process's own (~200 MB at rest) plus the 256MiB budget
 * and the garbage of the lines and labels built meanwhile. Before the budget, the query took
 * 3.4 GB and more, until V8 ran out of heap.
 */
const MAX_PEAK_RSS = 1500 * MiB;
const LINES = 3000;
const LIMIT_TEXT = 'max_query_memory_bytes';

async function push(base: string, app: string, lines: number): Promise<void> {
  const now = Date.now() - 60_000;
  for (let start = 0; start < lines; start += 1000) {
    const values: [string, string][] = [];
    for (let i = start; i < Math.min(lines, start + 1000); i++) {
      values.push([`${(now + i) * 1_000_000}`, `level=info line ${i}`]);
    }
    await pushOk(base, [{ stream: { app }, values }]);
  }
}

async function ready(server: ServerProcess): Promise<number> {
  return (await fetch(`${server.url}/ready`)).status;
}

interface RulesAnswer {
  data: {
    groups: Array<{
      name: string;
      lastEvaluation: string;
      rules: Array<{ health: string; lastError?: string; lastEvaluation: string }>;
    }>;
  };
}

describe('query memory budget on the single binary', () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServer({
      flags: ['-ruler.evaluation-interval=1s', '-ruler.poll-interval=1s'],
    });
    await push(server.url, 'x', LINES);
  }, 60_000);

  afterAll(async () => {
    await server?.dispose();
  });

  it('fails a log query whose formatted lines pass the budget, and stays up', async () => {
    const endNs = BigInt(Date.now() + 1000) * 1_000_000n;
    const params = new URLSearchParams({
      query: '{app="x"} | line_format "{{ repeat 1000000 \\"x\\" }}"',
      limit: '5000',
      start: `${endNs - 3_600_000_000_000n}`,
      end: `${endNs}`,
      direction: 'backward',
    });
    const started = Date.now();
    const res = await fetch(`${server.url}/loki/api/v1/query_range?${params}`);
    const body = await res.text();
    expect(res.status, body).toBe(400);
    expect(body).toContain(LIMIT_TEXT);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(server.running).toBe(true);
    expect(await ready(server)).toBe(200);
    const peak = server.samplePeakRss()!;
    console.log(`log query: peak RSS ${Math.round(peak / MiB)} MiB`);
    expect(peak).toBeLessThan(MAX_PEAK_RSS);
    // The same query with a small limit is answered.
    params.set('limit', '10');
    const small = await fetch(`${server.url}/loki/api/v1/query_range?${params}`);
    expect(small.status).toBe(200);
  }, 60_000);

  it('marks a recording rule over the budget health err, keeps evaluating it, and stays up', async () => {
    const group = `name: too-big
interval: 1s
rules:
  - record: x:too_big:count
    expr: sum by (x) (count_over_time({app="x"} | label_format x="{{ __line__ }}{{ repeat 500000 \\"y\\" }}" [10m]))
`;
    const posted = await fetch(`${server.url}/loki/api/v1/rules/budget`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/yaml' },
      body: group,
    });
    expect(posted.status).toBe(202);
    const rulesNow = async (): Promise<RulesAnswer['data']['groups'][number] | undefined> => {
      const res = await fetch(`${server.url}/prometheus/api/v1/rules`);
      const body = (await res.json()) as RulesAnswer;
      return body.data.groups.find((g) => g.name === 'too-big');
    };
    const failed = await eventually(
      async () => {
        const g = await rulesNow();
        return g?.rules[0]?.health === 'err' ? g : undefined;
      },
      'the rule marked health err',
      45_000,
    );
    expect(failed.rules[0]!.lastError).toContain(LIMIT_TEXT);
    // It keeps failing at its interval, and the process keeps answering.
    const first = failed.rules[0]!.lastEvaluation;
    const later = await eventually(
      async () => {
        const g = await rulesNow();
        return g !== undefined && g.rules[0]!.lastEvaluation !== first ? g : undefined;
      },
      'a later evaluation of the rule',
      45_000,
    );
    expect(later.rules[0]!.health).toBe('err');
    expect(server.running).toBe(true);
    expect(await ready(server)).toBe(200);
    const peak = server.samplePeakRss()!;
    console.log(`recording rule: peak RSS ${Math.round(peak / MiB)} MiB`);
    expect(peak).toBeLessThan(MAX_PEAK_RSS);
  }, 120_000);
});
