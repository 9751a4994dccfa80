import type { BuildInfo, InstanceOverview } from '@logsvc/api/browser';
import { useQuery } from '@tanstack/react-query';
import { getJson, getText } from '../api/http';
import { instancePath } from '../api/instance';
import { useNodeScrapes } from '../api/node-metrics';
import { useOverview } from '../api/overview-socket';
import { Sparkline } from '../charts/Sparkline';
import { DataTable } from '../components/DataTable';
import { ErrorMessage } from '../components/ErrorMessage';
import { formatBytes, formatNumber } from '../lib/format';
import { livenessOf, servicesNow, uptimeMs } from '../lib/liveness';
import { type Unit, nodeSeries } from '../lib/node-metrics';
import { formatDuration, formatTime } from '../lib/time';
import { Link, useLocation, useTitle } from '../router';
import { InstanceActions } from './InstanceActions';
import { STATE_CLASS } from './service-states';

const FORMATS: Record<Unit, (v: number) => string> = {
  number: formatNumber,
  bytes: formatBytes,
  'per-second': (v) => `${formatNumber(v)}/s`,
  'bytes-per-second': (v) => `${formatBytes(v)}/s`,
  seconds: (v) => (v < 1 ? `${formatNumber(Math.round(v * 1000))} ms` : `${formatNumber(v)} s`),
};

function LiveCharts({ id }: { id: string }) {
  const { scrapes, error } = useNodeScrapes(id, true);
  const series = nodeSeries(scrapes);
  return (
    <section aria-labelledby="live-charts">
      <h2 id="live-charts">Live, from its /metrics</h2>
      <ErrorMessage error={error} prefix="Metrics" />
      {scrapes.length === 0 && !error && <p>Reading its metrics…</p>}
      <div className="spark-grid">
        {series.map((s, i) => (
          <Sparkline
            key={s.metric.key}
            label={s.metric.title}
            times={s.times}
            values={s.values}
            format={FORMATS[s.metric.unit]}
            index={i}
          />
        ))}
      </div>
      <p className="small muted">
        Every 5 seconds; rates over the interval between two reads. A chart appears once the
        instance has that component.
      </p>
    </section>
  );
}

function BuildInfoList({ id }: { id: string }) {
  const info = useQuery({
    queryKey: ['buildinfo', id],
    queryFn: () => getJson<BuildInfo>(instancePath(id, '/loki/api/v1/status/buildinfo')),
  });
  if (!info.data) return <ErrorMessage error={info.error} prefix="Build info" />;
  const b = info.data;
  return (
    <dl className="facts">
      <dt>Version</dt>
      <dd>{b.version}</dd>
      <dt>Revision</dt>
      <dd className="code">{b.revision || '—'}</dd>
      <dt>Branch</dt>
      <dd>{b.branch || '—'}</dd>
      <dt>Built</dt>
      <dd>
        {b.buildDate || '—'} {b.buildUser ? `by ${b.buildUser}` : ''}
      </dd>
      <dt>Runtime</dt>
      <dd>{b.goVersion}</dd>
    </dl>
  );
}

function ChangedConfig({ id }: { id: string }) {
  const diff = useQuery({
    queryKey: ['config', id, 'diff'],
    queryFn: () => getText(instancePath(id, '/config'), { params: { mode: 'diff' } }),
  });
  return (
    <section aria-labelledby="node-config">
      <h2 id="node-config">Config set differently from the defaults</h2>
      <ErrorMessage error={diff.error} />
      <pre className="code-block" tabIndex={0}>
        {diff.data ?? ''}
      </pre>
      <p>
        <Link to="/config">All of its config, and diffs</Link>
      </p>
    </section>
  );
}

function NodeDetail({ instance, now }: { instance: InstanceOverview; now: number }) {
  const liveness = livenessOf(instance, now);
  const uptime = uptimeMs(instance, now);
  const services = servicesNow(instance, now);
  return (
    <>
      <p role="status">
        {liveness === 'live' ? (
          <span className="badge ok">alive</span>
        ) : liveness === 'dead' ? (
          <span className="badge bad">
            dead: no report for {formatDuration(now - Date.parse(instance.updated_at))}
          </span>
        ) : (
          <span className="badge bad">not reporting: known from the rings only</span>
        )}{' '}
        {instance.reported && liveness === 'live' && (
          <span className={`badge ${instance.ready ? 'ok' : 'bad'}`}>
            {instance.ready ? 'ready' : `not ready: ${instance.ready_message}`}
          </span>
        )}
      </p>
      {instance.reported && (
        <dl className="facts">
          <dt>Address</dt>
          <dd>{instance.http_url || '—'}</dd>
          <dt>Targets</dt>
          <dd>{instance.targets.join(', ')}</dd>
          <dt>Started</dt>
          <dd>{instance.started_at ? formatTime(instance.started_at) : '—'}</dd>
          <dt>Uptime</dt>
          <dd>{uptime === undefined ? '— (not running)' : formatDuration(uptime)}</dd>
          <dt>Ring IDs</dt>
          <dd>{(instance.ring_ids ?? [instance.id]).join(', ')}</dd>
        </dl>
      )}
      {liveness === 'live' && (
        <section aria-labelledby="build">
          <h2 id="build">Build</h2>
          <BuildInfoList id={instance.id} />
        </section>
      )}
      {instance.reported && (
        <section aria-labelledby="services">
          <h2 id="services">Services</h2>
          <DataTable columns={['Service', 'State']} wrap={false}>
            {services.map((s) => (
              <tr key={s.name}>
                <th scope="row">{s.name}</th>
                <td>
                  <span className={`badge ${STATE_CLASS[s.state]}`}>{s.state}</span>
                  {liveness === 'dead' && (
                    <span className="small muted"> (the process stopped reporting)</span>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        </section>
      )}
      <section aria-labelledby="rings">
        <h2 id="rings">Rings</h2>
        {instance.rings.length === 0 ? (
          <p>In no ring.</p>
        ) : (
          <DataTable columns={['Ring', 'State', 'Address', 'Zone']} wrap={false}>
            {instance.rings.map((r) => (
              <tr key={r.ring} className={r.healthy ? '' : 'alert'}>
                <th scope="row">
                  <Link to={`/rings?ring=${r.ring}`}>{r.ring}</Link>
                </th>
                <td>
                  <span className={`badge ${r.healthy ? 'ok' : 'bad'}`}>{r.state}</span>
                </td>
                <td>{r.address}</td>
                <td>{r.zone || '—'}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
      {liveness === 'live' && (
        <>
          <LiveCharts id={instance.id} />
          <section aria-labelledby="actions">
            <h2 id="actions">Actions</h2>
            <InstanceActions instance={instance} />
          </section>
          <ChangedConfig id={instance.id} />
        </>
      )}
    </>
  );
}

/** One instance: identity, build, services, rings, live charts, actions and config. */
export function NodePage() {
  const { search } = useLocation();
  const id = search.get('id') ?? '';
  useTitle(`Node ${id}`);
  const { overview } = useOverview();
  const instance = overview?.instances.find((i) => i.id === id || (i.ring_ids ?? []).includes(id));
  return (
    <section>
      <h1>Node {instance?.id ?? id}</h1>
      <p>
        <Link to="/">Back to the cluster</Link>
      </p>
      {!overview && <p>Loading…</p>}
      {overview && !instance && <p>No instance {id} in this cluster.</p>}
      {overview && instance && <NodeDetail instance={instance} now={Date.parse(overview.now)} />}
    </section>
  );
}
