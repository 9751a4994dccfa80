import { TENANT_OVERRIDES_PATH, type TenantOverridesView } from '@logsvc/api/browser';
import { useQuery } from '@tanstack/react-query';
import { getJson } from '../api/http';
import { DataTable } from '../components/DataTable';
import { ErrorMessage } from '../components/ErrorMessage';

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** Each tenant of the runtime config with the limits its overrides change from the defaults. */
export function TenantOverrides() {
  const view = useQuery({
    queryKey: ['overrides'],
    queryFn: () => getJson<TenantOverridesView>(TENANT_OVERRIDES_PATH),
    refetchInterval: 10_000,
  });
  if (view.error) return <ErrorMessage error={view.error} />;
  if (!view.data) return <p>Loading…</p>;
  const { runtime_config_file: file, tenants } = view.data;
  return (
    <div>
      <h2>Per-tenant overrides</h2>
      <p>
        {file === ''
          ? 'No runtime config file (runtime_config.file): every tenant has the limits of limits_config.'
          : `From ${file}, reread every runtime_config.period. Every other tenant has the limits of limits_config.`}
      </p>
      {file !== '' && tenants.length === 0 && <p>No tenant has overrides.</p>}
      {tenants.map((t) => (
        <DataTable
          key={t.tenant}
          columns={['Limit', 'Default', t.tenant]}
          caption={
            <>
              Tenant {t.tenant}: {t.changes.length} limit{t.changes.length === 1 ? '' : 's'} changed
            </>
          }
        >
          {t.changes.map((c) => (
            <tr key={c.setting}>
              <th scope="row" className="code">
                {c.setting}
              </th>
              <td className="code del">{show(c.default)}</td>
              <td className="code ins">{show(c.value)}</td>
            </tr>
          ))}
        </DataTable>
      ))}
    </div>
  );
}
