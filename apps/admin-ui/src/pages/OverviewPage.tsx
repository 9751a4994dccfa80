import type { InstanceOverview } from '@logsvc/api/browser';
import { useState } from 'react';
import { useOverview } from '../api/overview-socket';
import { livenessOf, servicesNow, uptimeMs } from '../lib/liveness';
import { Link, useTitle } from '../router';
import { formatDuration } from '../lib/time';
import { InstanceActions } from './InstanceActions';
import { STATE_CLASS } from './service-states';
import { DataTable } from '../components/DataTable';

function Services({ instance, now }: { instance: InstanceOverview; now: number }) {
  return (
    <ul className="services" aria-label={`services of ${instance.id}`}>
      {servicesNow(instance, now).map((s) => (
        <li key={s.name} className={`badge ${STATE_CLASS[s.state]}`}>
          {s.name}: {s.state}
        </li>
      ))}
    </ul>
  );
}

function InstanceRow({ instance, now }: { instance: InstanceOverview; now: number }) {
  const [open, setOpen] = useState(false);
  const liveness = livenessOf(instance, now);
  const silent = liveness === 'dead';
  const uptime = uptimeMs(instance, now);
  const unhealthy = instance.rings.some((r) => !r.healthy);
  return (
    <>
      <tr className={unhealthy || silent || (instance.reported && !instance.ready) ? 'alert' : ''}>
        <th scope="row">
          <Link to={`/node?id=${encodeURIComponent(instance.id)}`}>{instance.id}</Link>
          {instance.self && <span className="badge muted"> this process</span>}
          <div className="small">{instance.http_url}</div>
        </th>
        <td>{instance.reported ? instance.targets.join(', ') : '—'}</td>
        <td>{instance.version || '—'}</td>
        <td>{uptime === undefined ? '—' : formatDuration(uptime)}</td>
        <td>
          {!instance.reported ? (
            <span className="badge muted" title="known only from the rings">
              not reporting
            </span>
          ) : silent ? (
            <span className="badge bad">
              dead: silent for {formatDuration(now - Date.parse(instance.updated_at))}
            </span>
          ) : instance.ready ? (
            <span className="badge ok">ready</span>
          ) : (
            <span className="badge bad" title={instance.ready_message}>
              not ready: {instance.ready_message}
            </span>
          )}
        </td>
        <td>
          <Services instance={instance} now={now} />
        </td>
        <td>
          <ul className="services">
            {instance.rings.map((r) => (
              <li key={r.ring} className={`badge ${r.healthy ? 'ok' : 'bad'}`}>
                {r.ring}: {r.state}
              </li>
            ))}
          </ul>
        </td>
        <td>
          {liveness === 'live' && (
            <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
              {open ? 'Hide actions' : 'Actions'}
            </button>
          )}
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={8}>
            <InstanceActions instance={instance} />
          </td>
        </tr>
      )}
    </>
  );
}

/** Every instance with its targets, version, uptime, /ready and services, live. */
export function OverviewPage() {
  useTitle('Cluster');
  const { overview, state } = useOverview();
  return (
    <section>
      <h1>Cluster overview</h1>
      <p role="status" className="small">
        {state === 'live'
          ? `Live (${overview?.mode ?? '…'}), updated ${overview ? new Date(overview.now).toLocaleTimeString() : '…'}`
          : state === 'connecting'
            ? 'Connecting…'
            : 'Connection lost, reconnecting…'}
      </p>
      {overview && (
        <DataTable
          columns={['Instance', 'Targets', 'Version', 'Uptime', '/ready', 'Services', 'Rings']}
          action="Actions"
        >
          {overview.instances.map((i) => (
            <InstanceRow key={i.id} instance={i} now={Date.parse(overview.now)} />
          ))}
        </DataTable>
      )}
    </section>
  );
}
