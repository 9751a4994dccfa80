import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from './harness';
import { MINUTE_NS, getAs, nowNs, pushToIngester } from './read-helpers';

/**
 * Templates that in Loki take the heap or a core for minutes (issue 21): here each one is a
 * prompt 400 naming the budget, and the server keeps answering.
 */
describe('template budgets over HTTP', () => {
  let sut: TestServer;
  const t0 = nowNs() - 5n * MINUTE_NS;
  const range = { start: String(t0 - MINUTE_NS), end: String(t0 + MINUTE_NS), limit: '10' };

  beforeAll(async () => {
    sut = await startTestServer();
    await pushToIngester(sut, 'team-a', '{app="api"}', [[t0, 'level=info msg=hello']]);
  });
  afterAll(() => sut.close());

  const lineFormat = (template: string) =>
    getAs(sut, 'team-a', '/loki/api/v1/query_range', {
      ...range,
      query: `{app="api"} | line_format \`${template}\``,
    });

  it.each([
    [
      'repeat 100000000 "ab"',
      '{{ repeat 100000000 "ab" }}',
      'output exceeds the budget of 1048576',
    ],
    ['alignLeft 1e8', '{{ alignLeft 100000000 "a" }}', 'output exceeds the budget of 1048576'],
    ['indent 1e8', '{{ indent 100000000 .msg }}', 'output exceeds the budget of 1048576'],
    ['range over 1e9', '{{ range 1000000000 }}x{{ end }}', 'budget of 100000 steps'],
    [
      'a string doubled forty times',
      '{{ $x := "ab" }}{{ range 40 }}{{ $x = printf "%s%s" $x $x }}{{ end }}{{ $x }}',
      'output exceeds the budget of 1048576',
    ],
  ])('%s is a 400 naming the budget', async (_name, template, reason) => {
    const started = performance.now();
    const res = await lineFormat(template);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(reason);
    // Refused before it allocates: far from the minutes Loki spends.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect((await fetch(`${sut.url}/ready`)).status).toBe(200);
  });

  it('prints Go fmt markers for widths and precisions Go refuses, without building them', async () => {
    const res = await lineFormat(
      '{{ printf "%099999999d" 1 }}|{{ printf "%.999999999f" 1.5 }}|{{ printf "%*d" 99999999 7 }}',
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { result: Array<{ values: string[][] }> } };
    expect(body.data.result[0].values[0][1]).toBe(
      '%!(NOVERB)%!(EXTRA int=1)|%!(NOVERB)%!(EXTRA float64=1.5)|%!(BADWIDTH)7',
    );
  });

  it('keeps the line with TemplateFormatErr for a template that calls itself forever', async () => {
    const res = await lineFormat('{{ define "a" }}{{ template "a" }}{{ end }}{{ template "a" }}');
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      data: { result: Array<{ stream: Record<string, string>; values: string[][] }> };
    };
    expect(body.data.result[0].stream.__error__).toBe('TemplateFormatErr');
    expect(body.data.result[0].stream.__error_details__).toContain(
      'exceeded maximum template depth (1000)',
    );
    expect(body.data.result[0].values[0][1]).toBe('level=info msg=hello');
  });

  it.each([
    ['thousands of nested parentheses', `{{ ${'('.repeat(3000)}1${')'.repeat(3000)} }}`],
    ['thousands of nested ifs', `${'{{ if 1 }}'.repeat(3000)}x${'{{ end }}'.repeat(3000)}`],
  ])('refuses %s at parse time with Go text', async (_name, template) => {
    const res = await lineFormat(template);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('template: line:1: max expression depth exceeded');
  });

  it('answers fromJson of a 5,000-deep array with a 400 instead of a crash', async () => {
    const res = await lineFormat(`{{ fromJson "${'['.repeat(5000)}${']'.repeat(5000)}" }}`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('deeper than the budget of 1000 levels');
    expect((await fetch(`${sut.url}/ready`)).status).toBe(200);
  });
});
