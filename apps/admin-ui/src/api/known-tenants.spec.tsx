import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, json, renderPage, uiFeatures } from '../test-support';
import { KnownTenants } from './known-tenants';
import { TenantPicker, useTenant } from './tenant';

function Shown() {
  return <p data-testid="tenant">{useTenant().tenant}</p>;
}

const page = (
  <>
    <TenantPicker />
    <KnownTenants />
    <Shown />
  </>
);

describe('KnownTenants', () => {
  it('offers the tenants the cluster knows, and starts at one of them rather than fake', async () => {
    fakeApi({
      'GET /ui/api/features': () => json(uiFeatures({ auth_enabled: true })),
      'GET /ui/api/tenants': () => json({ tenants: ['team-b', 'team-c'] }),
    });
    renderPage(page, 'fake');
    await waitFor(() => expect(screen.getByTestId('tenant').textContent).toBe('team-b'));
    const input = screen.getByLabelText('Tenant (X-Scope-OrgID)');
    const list = document.getElementById(input.getAttribute('list')!)!;
    expect([...list.querySelectorAll('option')].map((o) => o.value)).toEqual(['team-b', 'team-c']);
  });

  it('acts for the single tenant fake when auth is off', async () => {
    fakeApi({
      'GET /ui/api/features': () => json(uiFeatures({ auth_enabled: false })),
      'GET /ui/api/tenants': () => json({ tenants: ['fake'] }),
    });
    renderPage(page, 'team-a');
    await waitFor(() => expect(screen.getByTestId('tenant').textContent).toBe('fake'));
    expect(screen.getByRole('note').textContent).toBe(
      'auth_enabled: false, every request acts for tenant fake',
    );
  });
});
