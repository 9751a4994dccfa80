import type { RingStatus } from '@logsvc/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from './harness';

const JSON_ACCEPT = { accept: 'application/json' };

/** The HTML table rows of a ring page, each as its cells' text. */
function rows(html: string): string[][] {
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(html)?.[1] ?? '';
  return [...body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((m) =>
    [...m[1].matchAll(/<td>([\s\S]*?)<\/td>/g)].map((c) => c[1]),
  );
}

describe('ring status pages of the single binary', () => {
  let sut: TestServer;
  // An instance id with HTML in it: the page must show it as text.
  const ID = 'ing<b>&"1\'';

  beforeAll(async () => {
    sut = await startTestServer({
      config: {
        auth_enabled: false,
        ingester: { lifecycler: { id: ID, num_tokens: 16 } },
        distributor: { ring: { instance_id: 'dist-1' } },
      },
    });
  });
  afterAll(() => sut.close());

  it('GET /ring lists the ingester ACTIVE with its tokens and all of the ownership', async () => {
    const res = await fetch(`${sut.url}/ring`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    expect(html).toContain('<title>Ingester ring</title>');
    const [row, ...others] = rows(html);
    expect(others).toEqual([]);
    // id, zone, state, address, registered, heartbeat, tokens, ownership, actions
    expect(row[0]).toBe('ing&#60;b&#62;&#38;&#34;1&#39;');
    expect(row[2]).toBe('ACTIVE');
    expect(row[6]).toBe('16');
    expect(row[7]).toBe('100%');
    // A healthy member has no Forget button.
    expect(row[8]).toBe('');
    expect(html).not.toContain('<b>&');
    // Tokens are listed only on request.
    expect(html).toContain('<a href="?tokens=true">Show Tokens</a>');
    expect(html).not.toContain('Tokens:<br/>');
  });

  it('GET /ring with Accept: application/json answers dskit’s fields', async () => {
    const before = Date.now();
    const res = await fetch(`${sut.url}/ring`, { headers: JSON_ACCEPT });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as RingStatus;
    expect(Math.abs(Date.parse(body.now) - before)).toBeLessThan(5_000);
    expect(body.shards).toHaveLength(1);
    const shard = body.shards[0];
    expect(shard).toMatchObject({
      id: ID,
      state: 'ACTIVE',
      zone: '',
      num_tokens: 16,
      ownership: 100,
      healthy: true,
    });
    expect(shard.address).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(shard.tokens).toHaveLength(16);
    expect([...shard.tokens].sort((a, b) => a - b)).toEqual(shard.tokens);
    expect(Date.parse(shard.timestamp)).toBeGreaterThan(before - 60_000);
    expect(Date.parse(shard.registered_timestamp)).toBeGreaterThan(before - 60_000);
    expect(shard.heartbeat_age_ms).toBeGreaterThanOrEqual(0);
    expect(shard.heartbeat_age_ms).toBeLessThan(60_000);
  });

  it('GET /ring?tokens=true lists each member’s tokens in the HTML page', async () => {
    const { shards } = (await (
      await fetch(`${sut.url}/ring`, { headers: JSON_ACCEPT })
    ).json()) as RingStatus;
    const html = await (await fetch(`${sut.url}/ring?tokens=true`)).text();
    expect(html).toContain(`<h2>Instance: ing&#60;b&#62;&#38;&#34;1&#39;</h2>`);
    expect(html).toContain(`Tokens:<br/>\n${shards[0].tokens.join(' ')}</p>`);
    expect(html).toContain('<a href="?tokens=false">Hide Tokens</a>');
  });

  it('GET /distributor/ring lists the distributor with its one token', async () => {
    const res = await fetch(`${sut.url}/distributor/ring`, { headers: JSON_ACCEPT });
    expect(res.status).toBe(200);
    const { shards } = (await res.json()) as RingStatus;
    expect(shards.map((s) => [s.id, s.state, s.num_tokens, s.ownership])).toEqual([
      ['dist-1', 'ACTIVE', 1, 100],
    ]);
    const html = await (await fetch(`${sut.url}/distributor/ring`)).text();
    expect(html).toContain('<title>Distributor ring</title>');
    expect(rows(html).map((r) => [r[0], r[2]])).toEqual([['dist-1', 'ACTIVE']]);
  });

  it('GET /indexgateway/ring answers 404 with a clear text: no index gateway ring here', async () => {
    for (const accept of [{}, JSON_ACCEPT]) {
      const res = await fetch(`${sut.url}/indexgateway/ring`, { headers: accept });
      expect(res.status).toBe(404);
      expect(await res.text()).toBe('this process does not use the index-gateway ring\n');
    }
  });

  it('POST /ring without forget shows the page; forget of an unknown id changes nothing', async () => {
    const res = await fetch(`${sut.url}/ring`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...JSON_ACCEPT },
      body: 'forget=nobody',
    });
    expect(res.status).toBe(200);
    const { shards } = (await res.json()) as RingStatus;
    expect(shards.map((s) => [s.id, s.state])).toEqual([[ID, 'ACTIVE']]);
  });
});

describe('ring status pages of an ingester-only process', () => {
  let sut: TestServer;
  beforeAll(async () => {
    sut = await startTestServer({ config: { target: 'ingester', auth_enabled: false } });
  });
  afterAll(() => sut.close());

  it('serves /ring but answers 404 for the distributor ring it does not use', async () => {
    expect((await fetch(`${sut.url}/ring`)).status).toBe(200);
    const res = await fetch(`${sut.url}/distributor/ring`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('this process does not use the distributor ring\n');
  });
});

describe('the pattern ingester ring page (/pattern/ring)', () => {
  let single: TestServer;
  let querier: TestServer;
  beforeAll(async () => {
    single = await startTestServer({
      config: {
        auth_enabled: false,
        pattern_ingester: { enabled: true, lifecycler: { id: 'pat-1', num_tokens: 8 } },
      },
    });
    querier = await startTestServer({
      config: { target: 'querier', auth_enabled: false, pattern_ingester: { enabled: true } },
    });
  });
  afterAll(async () => {
    await single.close();
    await querier.close();
  });

  it('lists the pattern ingester of the process, as HTML and as JSON', async () => {
    const res = await fetch(`${single.url}/pattern/ring`, { headers: JSON_ACCEPT });
    expect(res.status).toBe(200);
    const { shards } = (await res.json()) as RingStatus;
    expect(shards.map((s) => [s.id, s.state, s.num_tokens, s.ownership])).toEqual([
      ['pat-1', 'ACTIVE', 8, 100],
    ]);
    const html = await (await fetch(`${single.url}/pattern/ring`)).text();
    expect(html).toContain('<title>Pattern ingester ring</title>');
    expect(rows(html).map((r) => [r[0], r[2]])).toEqual([['pat-1', 'ACTIVE']]);
  });

  it('answers 404 where no pattern ingester runs, as Loki registers the page with it', async () => {
    const res = await fetch(`${querier.url}/pattern/ring`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('this process does not use the pattern-ingester ring\n');
    const post = await fetch(`${querier.url}/pattern/ring`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'forget=pat-1',
    });
    expect(post.status).toBe(404);
  });
});
