import type { LogServiceStatusView } from '@logsvc/api/browser';
import { formatDuration, formatTime } from '../lib/time';

/** A status older than this says no operator is watching (it refreshes every resync, 30s). */
const STALE_MS = 5 * 60_000;

/** What the ring-aware ingester rollout is doing, in words. */
function rolloutText(rollout: NonNullable<LogServiceStatusView['rollout']>): string {
  const pod = rollout.pod ? ` ${rollout.pod}` : '';
  const why = rollout.message ? `: ${rollout.message}` : '';
  switch (rollout.phase) {
    case 'Idle':
      return 'no ingester is being replaced';
    case 'Replacing':
      return `replacing${pod}${why}`;
    case 'Waiting':
      return `waiting${pod ? ` (pod${pod})` : ''}${why}`;
    case 'Halted':
      return `halted${pod ? ` at pod${pod}` : ''}${why}`;
    default:
      return `${rollout.phase}${pod}${why}`;
  }
}

/**
 * The LogService's status from the API server: the ingester rollout (which pod is being
 * replaced, why it waits or halted), the generation the operator observed, each component's
 * ready and updated pods, and the conditions.
 */
export function LogServiceStatus({ status, now }: { status: LogServiceStatusView; now: number }) {
  if (status.error !== undefined)
    return (
      <section aria-label="Rollout status" className="rollout">
        <h3>Rollout status</h3>
        <p className="note">The LogService&apos;s status is not available: {status.error}</p>
      </section>
    );
  const { rollout, generation, observedGeneration } = status;
  const observedMs = status.lastObservedTime ? Date.parse(status.lastObservedTime) : NaN;
  const stale = !Number.isNaN(observedMs) && now - observedMs > STALE_MS;
  const behind =
    generation !== undefined && observedGeneration !== undefined && observedGeneration < generation;
  const halted = rollout?.phase === 'Halted';
  const components = Object.entries(status.components ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return (
    <section aria-label="Rollout status" className="rollout">
      <h3>Rollout status</h3>
      <p className={halted ? 'error' : undefined} data-testid="rollout-phase">
        <strong>Ingester rollout: {rollout?.phase ?? 'unknown'}</strong>
        {rollout ? ` — ${rolloutText(rollout)}` : ' — the operator has not reported one'}
      </p>
      <p>
        {observedGeneration === undefined
          ? 'The operator has not observed this LogService yet.'
          : `The operator observed generation ${observedGeneration}${
              generation === undefined ? '' : ` of ${generation}`
            }${behind ? ': it has not acted on the newest spec yet' : ''}.`}
        {status.version ? ` Version ${status.version}.` : ''}
        {!Number.isNaN(observedMs) &&
          ` Last observed ${formatTime(status.lastObservedTime!)} (${formatDuration(now - observedMs)} ago)${
            stale ? ': no operator may be watching it' : ''
          }.`}
      </p>
      {components.length > 0 && (
        <ul className="rollout-components" aria-label="Components">
          {components.map(([name, c]) => (
            <li key={name}>
              <strong>{name}</strong> ({c.kind}):{' '}
              <progress
                max={Math.max(1, c.replicas)}
                value={c.updatedReplicas}
                aria-label={`${name} pods updated`}
              />{' '}
              {c.updatedReplicas}/{c.replicas} updated, {c.readyReplicas}/{c.replicas} ready
            </li>
          ))}
        </ul>
      )}
      {(status.conditions ?? []).length > 0 && (
        <dl className="rollout-conditions" aria-label="Conditions">
          {status.conditions!.map((c) => (
            <div key={c.type}>
              <dt>
                {c.type}: {c.status}
              </dt>
              <dd>
                {c.reason}
                {c.message ? ` — ${c.message}` : ''} (since {formatTime(c.lastTransitionTime)})
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
