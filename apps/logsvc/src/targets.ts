// Which components a `-target` runs, and what each module needs started before it.

/** Loki's components, by the names `-target` takes (docs/architecture.md). */
export const LOKI_COMPONENTS = [
  'distributor',
  'ingester',
  'querier',
  'query-frontend',
  'query-scheduler',
  'ruler',
  'compactor',
  'index-gateway',
  'pattern-ingester',
  'ui',
] as const;
export type LokiComponent = (typeof LOKI_COMPONENTS)[number];

/**
 * The components this build provides, in start order. Adding a component is one line here, its
 * Nest module in `modules/component-modules.ts` and its entry in MODULE_DEPENDENCIES.
 */
export const AVAILABLE_COMPONENTS = [
  'distributor',
  'ingester',
  'query-scheduler',
  'query-frontend',
  'querier',
  'index-gateway',
  'pattern-ingester',
  'compactor',
  'ruler',
  'ui',
] as const satisfies readonly LokiComponent[];
export type Component = (typeof AVAILABLE_COMPONENTS)[number];

/**
 * Targets that stand for several components, with the members Loki gives them, plus the pattern
 * ingester in `backend` (issue 16 puts it there, Loki 3.4 in `write`) and the admin UI in
 * `backend` (issue 20; Loki 3.4 has its `ui` in `all` only): both, so Loki's
 * simple-scalable deployments and the work. A write and a backend process then run one
 * pattern ingester each, in the one pattern ring, which spreads streams over them by token.
 * Members named `pattern-ingester` run only with `pattern_ingester.enabled`.
 */
export const GROUP_TARGETS: Readonly<Record<string, readonly LokiComponent[]>> = {
  all: [
    'query-scheduler',
    'query-frontend',
    'querier',
    'ingester',
    'pattern-ingester',
    'distributor',
    'ruler',
    'compactor',
    'ui',
  ],
  read: ['query-frontend', 'querier'],
  write: ['distributor', 'ingester', 'pattern-ingester'],
  backend: ['query-scheduler', 'ruler', 'compactor', 'index-gateway', 'pattern-ingester', 'ui'],
};

/** Services that are not components but that components run on. */
export const INTERNAL_SERVICES = [
  'server',
  'process-report',
  'runtime-config',
  'client-pools',
  'grpc-server',
  'ring',
  'querier-worker',
  'tail-sockets',
  'query-path',
  'ui-tail-bridge',
] as const;

/** The internal services that follow a component in the start order. */
const AFTER_COMPONENT: Partial<Record<Component, readonly string[]>> = {
  'query-frontend': ['query-frontend', 'query-path'],
  querier: ['querier', 'querier-worker', 'tail-sockets'],
  ui: ['ui', 'ui-tail-bridge'],
};

/**
 * The order services start in where no dependency decides: the internal ones, then the
 * components in AVAILABLE_COMPONENTS order, each followed by its own internal services (the
 * querier's workers and tail sockets after the querier, whatever order Nest initialises their
 * modules in: global modules first).
 */
export const SERVICE_ORDER: readonly string[] = [
  'server',
  'process-report',
  'runtime-config',
  'client-pools',
  'ring',
  'grpc-server',
  ...AVAILABLE_COMPONENTS.flatMap((c) => AFTER_COMPONENT[c] ?? [c]),
];

/**
 * Module dependency graph: a service starts after the listed ones are Running and stops before
 * them. A component module that needs another module running first adds it here.
 */
export const MODULE_DEPENDENCIES: Readonly<
  Record<Component | (typeof INTERNAL_SERVICES)[number], readonly string[]>
> = {
  server: [],
  // Reports every other service's state to the KV store: the last to stop but the server.
  'process-report': ['server'],
  'runtime-config': ['server'],
  // gRPC connections to other processes: closed once every component using them stopped.
  'client-pools': ['server'],
  // The KV store and the ring watchers every ring client reads.
  ring: ['server'],
  // Serves this process's ingester and index gateway to peers: up before the ingester joins
  // the ring (peers push to it as soon as it is ACTIVE), down only after it left.
  'grpc-server': ['server'],
  distributor: ['server', 'runtime-config', 'ring'],
  ingester: ['server', 'runtime-config', 'ring', 'grpc-server'],
  querier: ['server', 'runtime-config', 'ring'],
  // Holds the queue querier workers pull from; joins the scheduler ring once it serves gRPC.
  'query-scheduler': ['server', 'ring', 'grpc-server'],
  // Queues on this process's scheduler when it runs one (it stops first, then the scheduler).
  'query-frontend': ['server', 'runtime-config', 'ring', 'grpc-server', 'query-scheduler'],
  // A querier's workers pull jobs once the querier and a queue of this process run, and stop
  // (letting running jobs finish) before them.
  'querier-worker': ['querier', 'query-scheduler', 'query-frontend', 'ring'],
  // Open tails end before the querier they read from.
  'tail-sockets': ['querier'],
  // The frontend's local workers finish their sub-queries before the querier stops.
  'query-path': ['query-frontend', 'querier'],
  'index-gateway': ['server', 'ring', 'grpc-server'],
  // Peers push to it once it is in the pattern ring: the gRPC server is up first.
  'pattern-ingester': ['server', 'ring', 'grpc-server'],
  // Elected through the compactor ring; reads tenants' limits for retention and deletion.
  compactor: ['server', 'runtime-config', 'ring'],
  // Evaluates rules through its own querier over the ingesters and the store; other rulers
  // ask it for its groups over gRPC.
  ruler: ['server', 'runtime-config', 'ring', 'grpc-server'],
  // The admin UI's overview watches every ring of the process (none with -target=ui alone).
  ui: ['server', 'ring'],
  // Hands the admin UI's tail upgrades to the tail endpoint: stops before it.
  'ui-tail-bridge': ['ui', 'tail-sockets'],
};

export class TargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetError';
  }
}

export interface TargetOptions {
  /** `pattern_ingester.enabled`: group targets include the pattern ingester only when set. */
  patternIngesterEnabled: boolean;
  /**
   * The ring lives in a shared KV store (etcd), so components find their peers in other
   * processes. Without it, a distributor reaches only an ingester of its own process.
   */
  sharedRing: boolean;
}

function isAvailable(c: LokiComponent): c is Component {
  return (AVAILABLE_COMPONENTS as readonly string[]).includes(c);
}

function isLokiComponent(name: string): name is LokiComponent {
  return (LOKI_COMPONENTS as readonly string[]).includes(name);
}

/**
 * Components to run for a `-target` value: one name or a comma-separated list of names and
 * groups (`all`, `read`, `write`, `backend`). Throws TargetError for an unknown name, for the
 * pattern ingester named while it is disabled, and for a distributor without
 * an ingester in the same process when the ring is not shared (it has no ingesters to reach),
 * and likewise for a query frontend without a querier.
 */
export function resolveTarget(target: string, options: TargetOptions): Component[] {
  const names = target
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.length === 0)
    throw new TargetError('no target given: -target must name at least one component');
  const picked = new Set<Component>();
  for (const name of names) {
    const group = GROUP_TARGETS[name];
    if (group) {
      for (const c of group) {
        if (c === 'pattern-ingester' && !options.patternIngesterEnabled) continue;
        if (isAvailable(c)) picked.add(c);
      }
    } else if (isLokiComponent(name)) {
      if (name === 'pattern-ingester' && !options.patternIngesterEnabled) {
        throw new TargetError(
          `-target=${target}: the pattern ingester is disabled: set pattern_ingester.enabled: true ` +
            '(-pattern-ingester.enabled=true)',
        );
      }
      if (isAvailable(name)) picked.add(name);
    } else {
      const known = [...Object.keys(GROUP_TARGETS), ...LOKI_COMPONENTS].join(', ');
      throw new TargetError(
        `unrecognised target: ${JSON.stringify(name)}; known targets: ${known}`,
      );
    }
  }
  if (picked.has('distributor') && !picked.has('ingester') && !options.sharedRing) {
    throw new TargetError(
      `-target=${target}: the distributor has no ingesters to reach: with the in-memory ring ` +
        'it pushes only to an ingester in the same process; run it with the ingester ' +
        '(-target=write, -target=all or -target=distributor,ingester), or give every process ' +
        'the same etcd ring (common.ring.kvstore.store: etcd, see docs/cluster.md)',
    );
  }
  if (picked.has('query-frontend') && !picked.has('querier') && !options.sharedRing) {
    throw new TargetError(
      `-target=${target}: the query frontend has no queriers to reach: with the in-memory ring ` +
        'it runs queries only on a querier in the same process; run it with the querier ' +
        '(-target=read, -target=all or -target=query-frontend,querier), or give every process ' +
        'the same etcd ring (common.ring.kvstore.store: etcd, see docs/cluster.md)',
    );
  }
  return AVAILABLE_COMPONENTS.filter((c) => picked.has(c));
}
