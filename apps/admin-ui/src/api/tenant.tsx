// The tenant the pages act for: picked once, sent as X-Scope-OrgID, remembered in the browser.
import { tenantIdProblem } from '@logsvc/api/browser';
import { type ReactNode, createContext, useContext, useState } from 'react';

const STORAGE_KEY = 'logsvc-admin-tenant';
const DEFAULT_TENANT = 'fake';

interface TenantState {
  tenant: string;
  setTenant(tenant: string): void;
}

const TenantContext = createContext<TenantState>({ tenant: DEFAULT_TENANT, setTenant: () => {} });

/** The tenant remembered in the browser (the picker's), or `fake`. */
export function storedTenant(): string {
  try {
    return localStorage.getItem(STORAGE_KEY) || DEFAULT_TENANT;
  } catch {
    return DEFAULT_TENANT;
  }
}

export function TenantProvider({ children, initial }: { children: ReactNode; initial?: string }) {
  const [tenant, setState] = useState(() => initial ?? storedTenant());
  const setTenant = (t: string) => {
    setState(t);
    try {
      localStorage.setItem(STORAGE_KEY, t);
    } catch {
      // Private mode: kept for this page only.
    }
  };
  return <TenantContext.Provider value={{ tenant, setTenant }}>{children}</TenantContext.Provider>;
}

export function useTenant(): TenantState {
  return useContext(TenantContext);
}

/** The tenant field in the header: applies a valid tenant ID on change. */
export function TenantPicker() {
  const { tenant, setTenant } = useTenant();
  const [draft, setDraft] = useState(tenant);
  const problem = tenantIdProblem(draft);
  return (
    <form
      className="tenant"
      onSubmit={(e) => {
        e.preventDefault();
        if (!problem) setTenant(draft);
      }}
    >
      <label>
        Tenant (X-Scope-OrgID){' '}
        <input
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          aria-invalid={problem ? true : undefined}
          list="known-tenants"
          size={12}
        />
      </label>{' '}
      <button type="submit" disabled={!!problem || draft === tenant}>
        Use
      </button>
      {problem && draft !== '' && <span className="error"> {problem}</span>}
    </form>
  );
}
