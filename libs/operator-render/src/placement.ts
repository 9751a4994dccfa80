import type { ComponentSpec, LogServiceSpec } from '@logsvc/operator-api';
import type { ComponentPlan } from './components';
import { selectorLabels } from './labels';
import type { Owner } from './manifest';

export const HOSTNAME_NODE_LABEL = 'kubernetes.io/hostname';
export const ZONE_NODE_LABEL = 'topology.kubernetes.io/zone';

/** The spec of a plan's component: `query-frontend` is `components.queryFrontend`. */
export function componentSpecOf(
  spec: LogServiceSpec,
  plan: ComponentPlan,
): ComponentSpec | undefined {
  const key = plan.component.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  return (spec.components as unknown as Record<string, ComponentSpec | undefined>)[key];
}

/**
 * Where a component's pods go: its nodeSelector (plus the zone of a zone-aware set),
 * tolerations, affinity, priority class, and topology spread; ingesters (the ring-rollout
 * sets) spread over nodes and zones unless the spec says otherwise.
 */
export function placement(
  owner: Owner,
  spec: LogServiceSpec,
  plan: ComponentPlan,
): Record<string, unknown> {
  const c = componentSpecOf(spec, plan);
  const nodeSelector = {
    ...(c?.nodeSelector ?? {}),
    ...(plan.zone === undefined ? {} : { [ZONE_NODE_LABEL]: plan.zone }),
  };
  // Across every set of the component (all zones).
  const labelSelector = { matchLabels: selectorLabels(owner, plan.component) };
  const spread =
    c?.topologySpreadConstraints ??
    (plan.ringRollout
      ? [HOSTNAME_NODE_LABEL, ZONE_NODE_LABEL].map((topologyKey) => ({
          maxSkew: 1,
          topologyKey,
          whenUnsatisfiable: 'ScheduleAnyway',
          labelSelector,
        }))
      : []);
  return {
    ...(Object.keys(nodeSelector).length > 0 ? { nodeSelector } : {}),
    ...(c?.tolerations !== undefined && c.tolerations.length > 0
      ? { tolerations: c.tolerations }
      : {}),
    ...(c?.affinity !== undefined ? { affinity: c.affinity } : {}),
    ...(spread.length > 0 ? { topologySpreadConstraints: spread } : {}),
    ...(c?.priorityClassName ? { priorityClassName: c.priorityClassName } : {}),
  };
}
