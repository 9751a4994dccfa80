import type { RulesAlertJson } from '@logsvc/api/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  type LiveRule,
  deleteGroup,
  fetchLiveRules,
  fetchNamespaces,
  groupYaml,
} from '../api/rules';
import { useFeatures } from '../api/features';
import { useTenant } from '../api/tenant';
import { Confirm } from '../components/Confirm';
import { DataTable } from '../components/DataTable';
import { ErrorMessage } from '../components/ErrorMessage';
import { formatNumber } from '../lib/format';
import { formatDuration, formatTime } from '../lib/time';
import { Link, useLocation, useTitle } from '../router';
import { NEW_GROUP_YAML, RuleGroupEditor } from './RuleGroupEditor';
import { rereadAfterChange } from '../api/reread';

function Labels({ labels, title }: { labels: Record<string, string>; title: string }) {
  const entries = Object.entries(labels);
  if (entries.length === 0) return null;
  return (
    <div className="small">
      <span className="muted">{title}: </span>
      {entries.map(([k, v]) => (
        <span key={k} className="label">
          {k}={v}
        </span>
      ))}
    </div>
  );
}

/** When an alert fired: `for` after it became active (at the first evaluation after that). */
function alertTimes(a: RulesAlertJson, forSeconds: number): string {
  const active = Date.parse(a.activeAt);
  if (a.state === 'pending') return `pending since ${formatTime(a.activeAt)}`;
  if (Number.isNaN(active)) return a.state;
  const fired =
    forSeconds > 0 ? `, firing since about ${formatTime((active + forSeconds * 1000) / 1000)}` : '';
  return `firing, active since ${formatTime(a.activeAt)}${fired}`;
}

function RuleRow({ name, expr, live }: { name: string; expr: string; live?: LiveRule }) {
  const alerts = live?.type === 'alerting' ? live.alerts : [];
  const health = live?.health ?? 'unknown';
  const forSeconds = live?.type === 'alerting' ? live.duration : 0;
  const evaluated = live && !live.lastEvaluation.startsWith('0001');
  return (
    <tr className={health === 'err' ? 'alert' : ''}>
      <th scope="row">
        {name} <span className="small">({live?.type ?? 'not loaded yet'})</span>
      </th>
      <td>
        <code>{expr}</code>
        {live?.type === 'alerting' && (
          <div className="small">
            <span className="muted">for: </span>
            {forSeconds > 0 ? formatDuration(forSeconds * 1000) : '0s (fires at once)'}
          </div>
        )}
        {live && <Labels labels={live.labels} title="labels" />}
        {live?.type === 'alerting' && <Labels labels={live.annotations} title="annotations" />}
      </td>
      <td>{live?.type === 'alerting' ? live.state : '—'}</td>
      <td>
        <span className={`badge ${health === 'ok' ? 'ok' : health === 'err' ? 'bad' : 'muted'}`}>
          {health}
        </span>
      </td>
      <td>
        {evaluated ? (
          <>
            {formatTime(live.lastEvaluation)}
            <div className="small muted">took {formatSeconds(live.evaluationTime)}</div>
          </>
        ) : (
          'never'
        )}
      </td>
      <td className="error">{live?.lastError ?? ''}</td>
      <td>
        {alerts.length === 0
          ? '—'
          : alerts.map((a, i) => (
              <div key={i} className="alert-instance">
                <div>{alertTimes(a, forSeconds)}</div>
                <div className="small">value {formatNumber(a.value)}</div>
                <Labels labels={a.labels} title="labels" />
              </div>
            ))}
      </td>
    </tr>
  );
}

/** An evaluation's duration (s) as `3 ms`, `1.2 s`. */
function formatSeconds(s: number): string {
  return s < 1 ? `${formatNumber(Math.round(s * 1000 * 10) / 10)} ms` : `${formatNumber(s)} s`;
}

type Editing = { namespace?: string; yaml: string } | undefined;

/** Tenant → namespaces → groups → rules, with live state; create, edit and delete groups. */
export function RulesPage() {
  useTitle('Rules');
  const { tenant } = useTenant();
  const client = useQueryClient();
  const { search } = useLocation();
  // The rules APIs answer only in a process that runs the ruler.
  const features = useFeatures();
  const enabled = features.data?.rules === true;
  const namespaces = useQuery({
    queryKey: ['rules', tenant],
    enabled,
    queryFn: ({ signal }) => fetchNamespaces(tenant, signal),
  });
  const live = useQuery({
    queryKey: ['rules', tenant, 'live'],
    enabled,
    queryFn: ({ signal }) => fetchLiveRules(tenant, signal),
    refetchInterval: 10_000,
  });
  const [editing, setEditing] = useState<Editing>();
  const [deleting, setDeleting] = useState<{ namespace: string; group: string }>();
  const remove = useMutation({
    mutationFn: (d: { namespace: string; group: string }) =>
      deleteGroup(tenant, d.namespace, d.group),
    onSettled: () => {
      setDeleting(undefined);
      void rereadAfterChange(client, ['rules', tenant]);
    },
  });
  const names = Object.keys(namespaces.data ?? {}).sort();
  const selected = names.includes(search.get('ns') ?? '') ? search.get('ns')! : names[0];
  const groups = selected ? (namespaces.data?.[selected] ?? []) : [];
  return (
    <section>
      <h1>Rule groups of {tenant}</h1>
      <ErrorMessage error={features.error} />
      {features.data && !enabled && (
        <p role="note">
          This process runs no ruler, so it serves no rules API: open the admin UI of a process that
          runs the ruler.
        </p>
      )}
      {enabled && (
        <p>
          <button type="button" onClick={() => setEditing({ yaml: NEW_GROUP_YAML })}>
            New rule group
          </button>
        </p>
      )}
      {editing && (
        <RuleGroupEditor
          key={`${editing.namespace}:${editing.yaml}`}
          tenant={tenant}
          namespace={editing.namespace}
          initial={editing.yaml}
          onDone={() => setEditing(undefined)}
        />
      )}
      <ErrorMessage error={namespaces.error ?? live.error ?? remove.error} />
      {namespaces.data && names.length === 0 && <p>No rule groups for tenant {tenant}.</p>}
      {names.length > 0 && (
        <nav aria-label="Namespaces" className="tabs">
          {names.map((n) => (
            <Link
              key={n}
              to={`/rules?ns=${encodeURIComponent(n)}`}
              aria-current={n === selected ? 'page' : undefined}
            >
              {n}
            </Link>
          ))}
        </nav>
      )}
      {groups.map((g) => (
        <article key={g.name} className="card">
          <h2>
            {selected} / {g.name}{' '}
            <span className="small">every {g.interval ?? 'default interval'}</span>
          </h2>
          <p>
            <button
              type="button"
              onClick={() => setEditing({ namespace: selected, yaml: groupYaml(g) })}
            >
              Edit {g.name}
            </button>{' '}
            <button
              type="button"
              onClick={() => setDeleting({ namespace: selected!, group: g.name })}
            >
              Delete {g.name}
            </button>
          </p>
          <DataTable
            columns={[
              'Rule',
              'Expression',
              'State',
              'Health',
              'Last evaluation',
              'Last error',
              'Active alerts',
            ]}
          >
            {g.rules.map((r, i) => {
              const name = r.alert ?? r.record ?? '';
              return (
                <RuleRow
                  key={i}
                  name={name}
                  expr={r.expr}
                  live={live.data?.get(`${selected}/${g.name}/${name}`)}
                />
              );
            })}
          </DataTable>
        </article>
      ))}
      {deleting && (
        <Confirm
          title={`Delete ${deleting.group}?`}
          confirmLabel="Delete group"
          busy={remove.isPending}
          onConfirm={() => remove.mutate(deleting)}
          onCancel={() => setDeleting(undefined)}
        >
          The group {deleting.group} of namespace {deleting.namespace} and all its rules are removed
          for tenant {tenant}.
        </Confirm>
      )}
    </section>
  );
}
