import type { LogServiceSpec, ResourcesSpec } from '@logsvc/operator-api';

/** One workload of a LogService: a Deployment or a StatefulSet and what its pods run. */
export interface ComponentPlan {
  /** Component label value (`ingester`, `write`, ...); zones share it. */
  readonly component: string;
  /** Object name of the workload (`<ls>-ingester`, `<ls>-ingester-zone-a`). */
  readonly name: string;
  /** logsvc `-target`. */
  readonly target: string;
  readonly kind: 'Deployment' | 'StatefulSet';
  readonly replicas: number;
  readonly resources: ResourcesSpec;
  /** Each pod gets a PersistentVolumeClaim (WAL, local index, compactor markers). */
  readonly volume: boolean;
  /**
   * Holds ingesters: `OnDelete` StatefulSet whose pods the operator replaces one at a time,
   * after `/ingester/prepare_shutdown`, waiting for the ring (the rollout state machine).
   */
  readonly ringRollout: boolean;
  /** Zone of a zone-aware ingester set. */
  readonly zone?: string;
}

/** The workloads of a spec, in start order (the ones others depend on first). */
export function planComponents(name: string, spec: LogServiceSpec): ComponentPlan[] {
  const c = spec.components;
  const plan = (
    component: string,
    target: string,
    kind: ComponentPlan['kind'],
    replicas: number,
    resources: ResourcesSpec,
    volume: boolean,
    ringRollout = false,
  ): ComponentPlan => ({
    component,
    name: `${name}-${component}`,
    target,
    kind,
    replicas,
    resources,
    volume,
    ringRollout,
  });

  switch (spec.mode) {
    case 'SingleBinary':
      return [
        plan(
          'single-binary',
          'all',
          'StatefulSet',
          c.singleBinary.replicas,
          c.singleBinary.resources,
          true,
          true,
        ),
      ];
    case 'SimpleScalable':
      return [
        plan('write', 'write', 'StatefulSet', c.write.replicas, c.write.resources, true, true),
        plan('backend', 'backend', 'StatefulSet', c.backend.replicas, c.backend.resources, true),
        plan('read', 'read', 'Deployment', c.read.replicas, c.read.resources, false),
      ];
    case 'Microservices': {
      const zones = spec.zones ?? [];
      const ingester = plan(
        'ingester',
        'ingester',
        'StatefulSet',
        c.ingester.replicas,
        c.ingester.resources,
        true,
        true,
      );
      const ingesters =
        zones.length === 0
          ? [ingester]
          : zones.map((zone) => ({ ...ingester, name: `${name}-ingester-${zone}`, zone }));
      const out = [...ingesters];
      if (c.indexGateway.replicas > 0)
        out.push(
          plan(
            'index-gateway',
            'index-gateway',
            'StatefulSet',
            c.indexGateway.replicas,
            c.indexGateway.resources,
            false,
          ),
        );
      // The admin UI (`ui`) runs beside the ruler, so its Rules page works, and in Deployment
      // pods that a rollout replaces one at a time; without a ruler beside the compactor, whose
      // delete requests page then works. Without either no pod runs it.
      const uiOn = spec.ruler.enabled ? 'ruler' : spec.compactor.enabled ? 'compactor' : undefined;
      const withUi = (component: string) => (uiOn === component ? `${component},ui` : component);
      if (spec.compactor.enabled)
        out.push(
          plan('compactor', withUi('compactor'), 'StatefulSet', 1, c.compactor.resources, true),
        );
      out.push(
        plan(
          'distributor',
          'distributor',
          'Deployment',
          c.distributor.replicas,
          c.distributor.resources,
          false,
        ),
      );
      if (c.queryFrontend.replicas > 0 && c.queryScheduler.replicas > 0)
        out.push(
          plan(
            'query-scheduler',
            'query-scheduler',
            'Deployment',
            c.queryScheduler.replicas,
            c.queryScheduler.resources,
            false,
          ),
        );
      out.push(
        plan('querier', 'querier', 'Deployment', c.querier.replicas, c.querier.resources, false),
      );
      if (c.queryFrontend.replicas > 0)
        out.push(
          plan(
            'query-frontend',
            'query-frontend',
            'Deployment',
            c.queryFrontend.replicas,
            c.queryFrontend.resources,
            false,
          ),
        );
      if (spec.ruler.enabled)
        out.push(
          plan('ruler', withUi('ruler'), 'Deployment', c.ruler.replicas, c.ruler.resources, false),
        );
      return out;
    }
  }
}

/** The component that accepts pushes, and the one that answers queries. */
export function entryComponents(spec: LogServiceSpec): { push: string; query: string } {
  switch (spec.mode) {
    case 'SingleBinary':
      return { push: 'single-binary', query: 'single-binary' };
    case 'SimpleScalable':
      return { push: 'write', query: 'read' };
    case 'Microservices':
      return {
        push: 'distributor',
        query: spec.components.queryFrontend.replicas > 0 ? 'query-frontend' : 'querier',
      };
  }
}
