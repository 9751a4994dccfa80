// Which components a `-target` runs, and what each module needs started before it.

/** Components that can be run on their own (DESIGN.md). */
export const COMPONENTS = [
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
export type Component = (typeof COMPONENTS)[number];

/** Targets that stand for several components, as in Loki. */
export const GROUP_TARGETS: Readonly<Record<string, readonly Component[]>> = {
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
  backend: ['query-scheduler', 'ruler', 'compactor', 'index-gateway'],
};

/** Services that are not components but that components run on. */
export const INTERNAL_SERVICES = ['server', 'runtime-config'] as const;

/**
 * Module dependency graph: a service starts after the listed ones are Running and stops before
 * them. A component module that needs another module running first adds it here.
 */
export const MODULE_DEPENDENCIES: Readonly<Record<string, readonly string[]>> = {
  server: [],
  'runtime-config': ['server'],
  distributor: ['server', 'runtime-config'],
  ingester: ['server', 'runtime-config'],
  querier: ['server', 'runtime-config'],
  'query-frontend': ['server', 'runtime-config'],
  'query-scheduler': ['server', 'runtime-config'],
  ruler: ['server', 'runtime-config'],
  compactor: ['server', 'runtime-config'],
  'index-gateway': ['server', 'runtime-config'],
  'pattern-ingester': ['server', 'runtime-config'],
  ui: ['server'],
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
}

/**
 * Components for a `-target` value: one name or a comma-separated list of names and groups
 * (`all`, `read`, `write`, `backend`). Unknown names throw TargetError.
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
        picked.add(c);
      }
    } else if ((COMPONENTS as readonly string[]).includes(name)) {
      picked.add(name as Component);
    } else {
      const known = [...Object.keys(GROUP_TARGETS), ...COMPONENTS].join(', ');
      throw new TargetError(
        `unrecognised target: ${JSON.stringify(name)}; known targets: ${known}`,
      );
    }
  }
  return COMPONENTS.filter((c) => picked.has(c));
}
