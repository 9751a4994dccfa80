import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Overrides, parseRuntimeConfig } from './overrides';
import { defaultConfig } from './parse';

const defaults = defaultConfig().limits_config;

describe('parseRuntimeConfig', () => {
  it('keeps only the keys each tenant sets', () => {
    const sut = parseRuntimeConfig(
      'overrides:\n  team-a:\n    max_line_size: 1KB\n    query_timeout: 5m\n',
      'rt.yaml',
    );
    expect(sut.get('team-a')).toEqual({ max_line_size: 1024, query_timeout: 300_000 });
  });

  it('names the tenant and key of a bad value', () => {
    expect(() =>
      parseRuntimeConfig('overrides:\n  t1:\n    max_line_size: big\n', 'rt.yaml'),
    ).toThrow(
      'runtime config error: rt.yaml: overrides.t1.max_line_size: expected a size like 256KB, got "big"',
    );
    expect(() => parseRuntimeConfig('overrides:\n  t1:\n    nope: 1\n', 'rt.yaml')).toThrow(
      'overrides.t1.nope: unknown key',
    );
    expect(() => parseRuntimeConfig('limits: {}\n', 'rt.yaml')).toThrow(
      'rt.yaml: limits: unknown key',
    );
  });
});

describe('Overrides', () => {
  let sut: Overrides | undefined;
  afterEach(() => {
    sut?.stop();
    vi.useRealTimers();
  });

  it('gives tenants without overrides the configured limits', async () => {
    sut = new Overrides(defaults, { file: '', periodMs: 10_000 });
    await sut.start();
    expect(sut.forTenant('anyone')).toEqual(defaults);
  });

  it('applies a tenant override over limits_config and re-reads the file every period', async () => {
    vi.useFakeTimers();
    const dir = mkdtempSync(join(tmpdir(), 'overrides-'));
    const file = join(dir, 'runtime.yaml');
    writeFileSync(file, 'overrides:\n  a:\n    max_query_series: 7\n');
    sut = new Overrides(defaults, { file, periodMs: 10_000 });
    await sut.start();
    expect(sut.forTenant('a').max_query_series).toBe(7);
    expect(sut.forTenant('a').max_line_size).toBe(defaults.max_line_size);
    expect(sut.forTenant('b').max_query_series).toBe(500);

    writeFileSync(file, 'overrides:\n  b:\n    max_query_series: 9\n');
    await vi.advanceTimersByTimeAsync(10_000);
    await vi.waitFor(() => expect(sut!.forTenant('b').max_query_series).toBe(9));
    expect(sut.forTenant('a').max_query_series).toBe(500);
    expect(sut.tenants()).toEqual(['b']);
  });

  it("applies the keys of `*` to every tenant, under each tenant's own, and reloads them", async () => {
    vi.useFakeTimers();
    const dir = mkdtempSync(join(tmpdir(), 'overrides-'));
    const file = join(dir, 'runtime.yaml');
    writeFileSync(
      file,
      "overrides:\n  '*':\n    max_query_series: 7\n  a:\n    max_line_size: 1KB\n",
    );
    sut = new Overrides(defaults, { file, periodMs: 10_000 });
    await sut.start();
    expect(sut.forTenant('anyone').max_query_series).toBe(7);
    expect(sut.forTenant('a')).toMatchObject({ max_query_series: 7, max_line_size: 1024 });
    expect(sut.forTenant('anyone').max_line_size).toBe(defaults.max_line_size);

    writeFileSync(
      file,
      "overrides:\n  '*':\n    max_query_series: 9\n  a:\n    max_query_series: 3\n",
    );
    await vi.advanceTimersByTimeAsync(10_000);
    await vi.waitFor(() => expect(sut!.forTenant('anyone').max_query_series).toBe(9));
    expect(sut.forTenant('a').max_query_series).toBe(3);
    expect(sut.forTenant('a').max_line_size).toBe(defaults.max_line_size);
  });

  it('keeps the previous overrides when a reload fails, and reports it', async () => {
    vi.useFakeTimers();
    const dir = mkdtempSync(join(tmpdir(), 'overrides-'));
    const file = join(dir, 'runtime.yaml');
    writeFileSync(file, 'overrides:\n  a:\n    max_query_series: 7\n');
    const errors: Error[] = [];
    sut = new Overrides(defaults, { file, periodMs: 1000, onReloadError: (e) => errors.push(e) });
    await sut.start();
    writeFileSync(file, 'overrides:\n  a:\n    max_query_series: lots\n');
    await vi.advanceTimersByTimeAsync(1000);
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(errors[0].message).toContain('overrides.a.max_query_series');
    expect(sut.forTenant('a').max_query_series).toBe(7);
  });

  it('fails to start on an unreadable file', async () => {
    sut = new Overrides(defaults, { file: '/nonexistent/runtime.yaml', periodMs: 1000 });
    await expect(sut.start()).rejects.toThrow(
      'runtime config error: cannot read /nonexistent/runtime.yaml',
    );
  });

  it('answers fixed limits of some tenants and the defaults for the others', () => {
    const strict = { ...defaults, max_query_series: 7 };
    const fixed = Overrides.fixed(new Map([['a', strict]]), defaults);
    expect(fixed.forTenant('a').max_query_series).toBe(7);
    expect(fixed.forTenant('b')).toEqual(defaults);
  });
});

describe("Loki's limits in per-tenant overrides", () => {
  it('accepts those without effect with a warning, and refuses the rest naming the key', () => {
    const warnings: string[] = [];
    const overrides = parseRuntimeConfig(
      [
        'overrides:',
        '  team-a:',
        '    max_line_size: 1MB',
        '    shard_streams:',
        '      enabled: true',
        '    bloom_creation_enabled: true',
        '',
      ].join('\n'),
      'rt.yaml',
      (w) => warnings.push(w.key),
    );
    expect(overrides.get('team-a')).toEqual({ max_line_size: 1024 * 1024 });
    expect(warnings).toEqual([
      'overrides.team-a.shard_streams',
      'overrides.team-a.bloom_creation_enabled',
    ]);
    expect(() =>
      parseRuntimeConfig('overrides:\n  team-a:\n    required_labels: [app]\n', 'rt.yaml'),
    ).toThrow(
      'runtime config error: rt.yaml: overrides.team-a.required_labels: not supported by logsvc: a limit logsvc does not enforce',
    );
    // At Loki's default, a refused limit changes nothing.
    expect(
      parseRuntimeConfig('overrides:\n  team-a:\n    required_labels: []\n', 'rt.yaml').get(
        'team-a',
      ),
    ).toEqual({});
    expect(() =>
      parseRuntimeConfig('overrides:\n  team-a:\n    max_line_sise: 1\n', 'rt.yaml'),
    ).toThrow('overrides.team-a.max_line_sise: unknown key');
  });
});
