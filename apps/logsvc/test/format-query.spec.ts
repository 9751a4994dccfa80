import type { FormatQueryResponse } from '@logsvc/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from './harness';

describe('format_query', () => {
  let sut: TestServer;
  beforeAll(async () => {
    sut = await startTestServer({ config: { auth_enabled: false } });
  });
  afterAll(() => sut.close());

  it('pretty-prints a query given as a URL parameter (both path spellings)', async () => {
    for (const prefix of ['/logsvc', '/loki']) {
      const q = encodeURIComponent('sum   by(app)(rate({app="api"}|="x"[5m]))');
      const res = await fetch(`${sut.url}${prefix}/api/v1/format_query?query=${q}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
      expect(await res.json()).toEqual({
        status: 'success',
        data: 'sum by (app) (rate({app="api"} |= "x" [5m]))',
      });
    }
  });

  it('accepts the query as a form value on POST', async () => {
    const res = await fetch(`${sut.url}/loki/api/v1/format_query`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ query: '{app="a"}|json' }).toString(),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as FormatQueryResponse).data).toBe('{app="a"} | json');
  });

  it('escapes HTML characters as Go does', async () => {
    const q = encodeURIComponent('{app="a"} |= "<b>&"');
    const res = await fetch(`${sut.url}/loki/api/v1/format_query?query=${q}`);
    const text = await res.text();
    expect(text).toContain('\\u003cb\\u003e\\u0026');
    expect(JSON.parse(text).data).toBe('{app="a"} |= "<b>&"');
  });

  it('answers invalid LogQL with 400 and the parse error with its position', async () => {
    const q = encodeURIComponent('{app="a"');
    const res = await fetch(`${sut.url}/loki/api/v1/format_query?query=${q}`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as FormatQueryResponse;
    expect(body.status).toBe('invalid-query');
    expect(body.error).toBe(
      'parse error at line 1, col 9: syntax error: unexpected $end, expecting } or ,',
    );
  });

  it('answers a POST form with an invalid query with 400 invalid-query', async () => {
    const res = await fetch(`${sut.url}/logsvc/api/v1/format_query`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ query: '{app="a"} | unwrap x' }).toString(),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      status: 'invalid-query',
      error: 'parse error at line 1, col 13: syntax error: unexpected unwrap',
    });
  });
});

// The spec exposes format_query on every component, not only on the querier.
describe.each(['ingester', 'querier', 'write', 'read'])(
  'format_query with -target=%s',
  (target) => {
    let sut: TestServer;
    beforeAll(async () => {
      sut = await startTestServer({ config: { target } });
    });
    afterAll(() => sut.close());

    it('is served, without a tenant', async () => {
      const q = encodeURIComponent('{app="a"}|json');
      const res = await fetch(`${sut.url}/loki/api/v1/format_query?query=${q}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'success', data: '{app="a"} | json' });
    });
  },
);
