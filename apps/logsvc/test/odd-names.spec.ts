import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from './harness';
import { getAs, nowNs } from './read-helpers';

/** Names that are properties of every plain JavaScript object. */
const ODD = ['__proto__', 'constructor', 'hasOwnProperty', 'toString'];

/** `[name, value]` pairs of a JSON object in the raw answer (own keys, as sent). */
const pairs = (o: unknown) => Object.entries(o as object).sort(([a], [b]) => (a < b ? -1 : 1));

describe('label and structured metadata names that are object-prototype properties', () => {
  let sut: TestServer;
  const ts = nowNs() - 60_000_000_000n;
  const stream =
    '{"app":"odd","__proto__":"p","constructor":"c","hasOwnProperty":"h","toString":"t"}';
  const metadata = '{"__proto__":"mp","constructor":"mc","hasOwnProperty":"mh","toString":"mt"}';
  const expectedStream = [
    ['__proto__', 'p'],
    ['app', 'odd'],
    ['constructor', 'c'],
    ['hasOwnProperty', 'h'],
    ['service_name', 'odd'],
    ['toString', 't'],
  ];

  beforeAll(async () => {
    sut = await startTestServer();
    const body = `{"streams":[{"stream":${stream},"values":[["${ts}","hello",${metadata}]]}]}`;
    const res = await fetch(`${sut.url}/loki/api/v1/push`, {
      method: 'POST',
      headers: { 'X-Scope-OrgID': 'odd', 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(204);
  });
  afterAll(() => sut.close());

  const range = () => ({ start: String(ts - 1000n), end: String(ts + 1000n) });

  it('keeps them in query_range stream labels', async () => {
    const res = await getAs(sut, 'odd', '/loki/api/v1/query_range', {
      query: '{__proto__="p"} | __proto___extracted="mp" | constructor_extracted="mc"',
      ...range(),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { result: Array<{ stream: object }> } };
    expect(body.data.result).toHaveLength(1);
    // Without categorize-labels, structured metadata joins the stream labels, as in Loki.
    expect(pairs(body.data.result[0].stream)).toEqual(
      [
        ...expectedStream,
        ['__proto___extracted', 'mp'],
        ['constructor_extracted', 'mc'],
        ['detected_level', 'unknown'],
        ['hasOwnProperty_extracted', 'mh'],
        ['toString_extracted', 'mt'],
      ].sort(([a], [b]) => (a < b ? -1 : 1)),
    );
  });

  it('keeps them in categorize-labels stream labels and structured metadata', async () => {
    const qs = new URLSearchParams({ query: '{app="odd"}', ...range() });
    const res = await fetch(`${sut.url}/loki/api/v1/query_range?${qs}`, {
      headers: { 'X-Scope-OrgID': 'odd', 'X-Loki-Response-Encoding-Flags': 'categorize-labels' },
    });
    const body = (await res.json()) as {
      data: { result: Array<{ stream: object; values: [string, string, object][] }> };
    };
    const [s] = body.data.result;
    expect(pairs(s.stream)).toEqual(expectedStream);
    const categories = s.values[0][2] as { structuredMetadata: object };
    // Named as the pipeline sees them: a metadata name equal to a stream label gets _extracted.
    expect(pairs(categories.structuredMetadata)).toEqual([
      ['__proto___extracted', 'mp'],
      ['constructor_extracted', 'mc'],
      ['detected_level', 'unknown'],
      ['hasOwnProperty_extracted', 'mh'],
      ['toString_extracted', 'mt'],
    ]);
  });

  it('lists them in series, labels and label values', async () => {
    const series = await getAs(sut, 'odd', '/loki/api/v1/series', {
      'match[]': '{__proto__="p"}',
      ...range(),
    });
    const seriesBody = (await series.json()) as { data: object[] };
    expect(seriesBody.data.map(pairs)).toEqual([expectedStream]);

    const labels = await getAs(sut, 'odd', '/loki/api/v1/labels', range());
    expect(await labels.json()).toEqual({
      status: 'success',
      data: [...ODD, 'app', 'service_name'].sort(),
    });

    for (const name of ODD) {
      const values = await getAs(sut, 'odd', `/loki/api/v1/label/${name}/values`, range());
      const want = expectedStream.find(([n]) => n === name)?.[1];
      expect(await values.json()).toEqual({ status: 'success', data: [want] });
    }
  });

  it('refuses structured metadata with an empty name with a 400 naming the problem', async () => {
    const body = `{"streams":[{"stream":{"app":"odd"},"values":[["${ts}","x",{"":"v"}]]}]}`;
    const res = await fetch(`${sut.url}/loki/api/v1/push`, {
      method: 'POST',
      headers: { 'X-Scope-OrgID': 'odd', 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe(
      `stream '{app="odd", service_name="odd"}' has structured metadata with an empty name\n`,
    );
  });
});
