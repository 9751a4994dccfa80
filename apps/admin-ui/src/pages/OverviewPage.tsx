import type { InstanceOverview, ServiceState } from '@logsvc/api/browser';
import { useState } from 'react';
import { useOverview } from '../api/overview-socket';
import { useTitle } from '../router';
import { formatDuration } from '../lib/time';
import { InstanceActions } from './InstanceActions';

/** A report older than this means the process stopped reporting. */
const SILENT_AFTER_MS = 30_000;

const STATE_CLASS: Record<ServiceState, string> = {
  New: 'muted',
  Starting: 'warn',
  Running: 'ok',
  Stopping: 'warn',
  Terminated: 'muted',
  Failed: 'bad',
};

function Services({ instance }: { instance: InstanceOverview }) {
  return (
    <ul className="services" aria-label={`services of ${instance.id}`}>
      {instance.services.map((s) => (
        <li key={s.name} className={`badge ${STATE_CLASS[s.state]}`}>
          {s.name}: {s.state}
        </li>
      ))}
    </ul>
  );
}

function InstanceRow({ instance, now }: { instance: InstanceOverview; now: number }) {
  const [open, setOpen] = useState(false);
  const silent =
    instance.reported && !instance.self && now - Date.parse(instance.updated_at) > SILENT_AFTER_MS;
  const unhealthy = instance.rings.some((r) => !r.healthy);
  return (
    <>
      <tr className={unhealthy || silent || (instance.reported && !instance.ready) ? 'alert' : ''}>
        <th scope="row">
          {instance.id}
          {instance.self && <span className="badge muted"> this process</span>}
          <div className="small">{instance.http_url}</div>
        </th>
        <td>{instance.reported ? instance.targets.join(', ') : '—'}</td>
        <td>{instance.version || '—'}</td>
        <td>{instance.started_at ? formatDuration(now - Date.parse(instance.started_at)) : '—'}</td>
        <td>
          {!instance.reported ? (
            <span className="badge muted" title="known only from the rings">
              not reporting
            </span>
          ) : silent ? (
            <span className="badge bad">
              silent since {formatDuration(now - Date.parse(instance.updated_at))}
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
          <Services instance={instance} />
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
          {instance.reported && (
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
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Instance</th>
                <th scope="col">Targets</th>
                <th scope="col">Version</th>
                <th scope="col">Uptime</th>
                <th scope="col">/ready</th>
                <th scope="col">Services</th>
                <th scope="col">Rings</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {overview.instances.map((i) => (
                <InstanceRow key={i.id} instance={i} now={Date.parse(overview.now)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
