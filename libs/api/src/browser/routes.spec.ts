import { describe, expect, it } from 'vitest';
import { ROUTES, allApiPaths, apiPaths, deprecatedApiPaths, toLokiPath } from './routes';

describe('route table', () => {
  it('derives Loki paths from the spec paths', () => {
    expect(apiPaths('push')).toEqual(['/logsvc/api/v1/push', '/loki/api/v1/push']);
    expect(apiPaths('label_values')).toEqual([
      '/logsvc/api/v1/label/:name/values',
      '/loki/api/v1/label/:name/values',
    ]);
    expect(apiPaths('compat_rules')).toEqual(['/api/compat/rules', '/api/prom/rules']);
    expect(apiPaths('compat_api_alerts')).toEqual([
      '/compat/api/v1/alerts',
      '/prometheus/api/v1/alerts',
    ]);
  });

  it('lists deprecated paths separately, with their Loki spelling', () => {
    expect(deprecatedApiPaths('push')).toEqual(['/api/compat/push', '/api/prom/push']);
    expect(deprecatedApiPaths('labels')).toEqual(['/api/compat/label', '/api/prom/label']);
    expect(deprecatedApiPaths('query_range')).toEqual([]);
    expect(allApiPaths('tail')).toEqual([
      '/logsvc/api/v1/tail',
      '/loki/api/v1/tail',
      '/api/compat/tail',
      '/api/prom/tail',
    ]);
  });

  it('keeps paths without a product name as they are', () => {
    expect(apiPaths('ready')).toEqual(['/ready']);
    expect(apiPaths('otlp_logs')).toEqual(['/otlp/v1/logs']);
    expect(toLokiPath('/flush')).toBe('/flush');
  });

  it('never produces the same path for two routes', () => {
    const seen = new Map<string, string>();
    for (const name of Object.keys(ROUTES) as (keyof typeof ROUTES)[]) {
      for (const p of allApiPaths(name)) {
        expect(seen.get(p), `${p} of ${name}`).toBeUndefined();
        seen.set(p, name);
      }
    }
  });
});
