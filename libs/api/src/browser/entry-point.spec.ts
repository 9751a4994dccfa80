import * as server from '@logsvc/api';
import * as browser from '@logsvc/api/browser';
import { describe, expect, it } from 'vitest';

describe('@logsvc/api/browser', () => {
  it('is importable on its own and re-exported unchanged by @logsvc/api', () => {
    expect(browser.apiPaths('push')).toEqual(['/logsvc/api/v1/push', '/loki/api/v1/push']);
    expect(browser.isValidTenantId('team-a')).toBe(true);
    for (const [name, value] of Object.entries(browser)) {
      expect((server as Record<string, unknown>)[name]).toBe(value);
    }
  });
});
