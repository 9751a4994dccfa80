import { describe, expect, it } from 'vitest';
import { forwardedRoute, matchForwardedRoute } from './forwarded-routes';

describe('forwardedRoute', () => {
  it("knows every querier read endpoint, Loki's spellings and the legacy aliases", () => {
    expect(forwardedRoute('/api/prom/label')).toBe('labels');
    expect(forwardedRoute('/loki/api/v1/label/app/values')).toBe('label_values');
    expect(forwardedRoute('/api/prom/label/app/values')).toBe('label_values');
    expect(forwardedRoute('/api/prom/series')).toBe('series');
    expect(forwardedRoute('/loki/api/v1/index/volume_range')).toBe('index_volume_range');
    expect(forwardedRoute('/loki/api/v1/detected_field/level/values')).toBe(
      'detected_field_values',
    );
    expect(forwardedRoute('/loki/api/v1/patterns')).toBe('patterns');
  });

  it('leaves the rest alone: queries, tails, pushes, status pages, look-alikes', () => {
    expect(forwardedRoute('/loki/api/v1/tail')).toBeUndefined();
    // Split, sharded and cached by the frontend itself, not forwarded whole.
    expect(forwardedRoute('/loki/api/v1/query_range')).toBeUndefined();
    expect(forwardedRoute('/api/prom/query')).toBeUndefined();
    expect(forwardedRoute('/loki/api/v1/push')).toBeUndefined();
    expect(forwardedRoute('/ready')).toBeUndefined();
    expect(forwardedRoute('/loki/api/v1/label/a/b/values')).toBeUndefined();
    expect(forwardedRoute('/loki/api/v1/query_rangeX')).toBeUndefined();
  });

  it("reads the name in the path as the querier's route does (URL-decoded)", () => {
    expect(matchForwardedRoute('/loki/api/v1/label/k8s%2Fpod%20name/values')).toEqual({
      route: 'label_values',
      name: 'k8s/pod name',
      path: '/loki/api/v1/label/:name/values',
    });
    expect(matchForwardedRoute('/loki/api/v1/detected_field/%ZZ/values')).toEqual({
      route: 'detected_field_values',
      name: '%ZZ',
      path: '/loki/api/v1/detected_field/:name/values',
    });
    expect(matchForwardedRoute('/loki/api/v1/series')).toEqual({
      route: 'series',
      name: '',
      path: '/loki/api/v1/series',
    });
  });
});
