import { afterEach, describe, expect, it, vi } from 'vitest';
import { request } from './http';

describe('request', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  function capture(): Array<Record<string, string>> {
    const sent: Array<Record<string, string>> = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit = {}) => {
      sent.push(init.headers as Record<string, string>);
      return new Response('ok');
    });
    return sent;
  }

  it("sends X-Scope-OrgID on every request: the page's tenant, else the tenant picker's", async () => {
    const sent = capture();
    localStorage.setItem('logsvc-admin-tenant', 'team-b');
    await request('/ui/api/overview');
    await request('/loki/api/v1/rules', { tenant: 'team-a' });
    localStorage.clear();
    await request('/ui/api/instances/x/config');
    expect(sent.map((h) => h['X-Scope-OrgID'])).toEqual(['team-b', 'team-a', 'fake']);
  });
});
