// The tenants the cluster knows, offered by the tenant field; with auth_enabled: false the one
// tenant `fake`.
import { UI_TENANTS_PATH } from '@logsvc/api/browser';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useFeatures } from './features';
import { getJson } from './http';
import { useTenant } from './tenant';

export const KNOWN_TENANTS_LIST_ID = 'known-tenants';
/** The tenant every request acts for when auth_enabled is false. */
export const SINGLE_TENANT = 'fake';

export function useKnownTenants() {
  return useQuery({
    queryKey: ['tenants'],
    queryFn: () => getJson<{ tenants: string[] }>(UI_TENANTS_PATH),
    select: (r) => r.tenants,
    refetchInterval: 60_000,
  });
}

/**
 * The known tenants as the tenant field's suggestions, and the tenant to start with: the single
 * tenant when auth is off, else the first known tenant while the field still holds the
 * single-tenant default that this cluster does not use.
 */
export function KnownTenants() {
  const features = useFeatures().data;
  const known = useKnownTenants().data;
  const { tenant, setTenant } = useTenant();
  const authOff = features?.auth_enabled === false;
  useEffect(() => {
    if (authOff && tenant !== SINGLE_TENANT) setTenant(SINGLE_TENANT);
    else if (
      features?.auth_enabled &&
      tenant === SINGLE_TENANT &&
      known &&
      known.length > 0 &&
      !known.includes(SINGLE_TENANT)
    )
      setTenant(known[0]!);
  }, [authOff, features?.auth_enabled, known, tenant, setTenant]);
  return (
    <>
      <datalist id={KNOWN_TENANTS_LIST_ID}>
        {(known ?? []).map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>
      {authOff && (
        <span className="small muted" role="note">
          auth_enabled: false, every request acts for tenant {SINGLE_TENANT}
        </span>
      )}
    </>
  );
}
