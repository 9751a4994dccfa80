import { describe, expect, it } from 'vitest';
import { COMPONENT_MODULES } from './modules/component-modules';
import { AVAILABLE_COMPONENTS, MODULE_DEPENDENCIES, resolveTarget } from './targets';

const off = { patternIngesterEnabled: false, sharedRing: false };
const on = { patternIngesterEnabled: true, sharedRing: false };
const etcd = { patternIngesterEnabled: false, sharedRing: true };

describe('resolveTarget', () => {
  it('runs the members of all, read and write that this build provides', () => {
    expect(resolveTarget('all', off)).toEqual([
      'distributor',
      'ingester',
      'query-scheduler',
      'query-frontend',
      'querier',
      'compactor',
      'ruler',
      'ui',
    ]);
    expect(resolveTarget('all', on)).toEqual([
      'distributor',
      'ingester',
      'query-scheduler',
      'query-frontend',
      'querier',
      'pattern-ingester',
      'compactor',
      'ruler',
      'ui',
    ]);
    expect(resolveTarget('read', off)).toEqual(['query-frontend', 'querier']);
    expect(resolveTarget('write', off)).toEqual(['distributor', 'ingester']);
    expect(resolveTarget('write', on)).toEqual(['distributor', 'ingester', 'pattern-ingester']);
    // Loki 3.4 has it in write; issue 16 in backend: logsvc has it in both, when enabled.
    expect(resolveTarget('backend', on)).toEqual([
      'query-scheduler',
      'index-gateway',
      'pattern-ingester',
      'compactor',
      'ruler',
      'ui',
    ]);
    expect(resolveTarget('backend', off)).toEqual([
      'query-scheduler',
      'index-gateway',
      'compactor',
      'ruler',
      'ui',
    ]);
    expect(resolveTarget('write,backend', on)).toEqual([
      'distributor',
      'ingester',
      'query-scheduler',
      'index-gateway',
      'pattern-ingester',
      'compactor',
      'ruler',
      'ui',
    ]);
  });

  it('accepts the available components and comma-separated lists', () => {
    expect(resolveTarget('ingester', off)).toEqual(['ingester']);
    expect(resolveTarget('querier', off)).toEqual(['querier']);
    expect(resolveTarget('querier, ingester,querier', off)).toEqual(['ingester', 'querier']);
    expect(resolveTarget('distributor,ingester', off)).toEqual(['distributor', 'ingester']);
    expect(resolveTarget('read,backend', off)).toEqual([
      'query-scheduler',
      'query-frontend',
      'querier',
      'index-gateway',
      'compactor',
      'ruler',
      'ui',
    ]);
    expect(resolveTarget('compactor', off)).toEqual(['compactor']);
    expect(resolveTarget('ruler', off)).toEqual(['ruler']);
    expect(resolveTarget('query-frontend', etcd)).toEqual(['query-frontend']);
    expect(resolveTarget('query-scheduler', off)).toEqual(['query-scheduler']);
    expect(resolveTarget('ui', off)).toEqual(['ui']);
  });

  it('runs the pattern ingester on its own only when it is enabled', () => {
    expect(resolveTarget('pattern-ingester', on)).toEqual(['pattern-ingester']);
    expect(() => resolveTarget('pattern-ingester', off)).toThrow(
      '-target=pattern-ingester: the pattern ingester is disabled: set pattern_ingester.enabled: true',
    );
  });

  it('refuses a distributor without an ingester in the same process, unless the ring is shared', () => {
    for (const target of ['distributor', 'distributor,querier']) {
      expect(() => resolveTarget(target, off)).toThrow(
        `-target=${target}: the distributor has no ingesters to reach: with the in-memory ring`,
      );
      expect(resolveTarget(target, etcd)).toContain('distributor');
    }
  });

  it('refuses a query frontend without a querier in the same process, unless the ring is shared', () => {
    expect(() => resolveTarget('query-frontend', off)).toThrow(
      '-target=query-frontend: the query frontend has no queriers to reach: with the in-memory ring',
    );
    expect(resolveTarget('query-frontend', etcd)).toEqual(['query-frontend']);
    expect(resolveTarget('query-frontend,querier', off)).toEqual(['query-frontend', 'querier']);
  });

  it('rejects unknown and empty targets', () => {
    expect(() => resolveTarget('querier,nope', off)).toThrow('unrecognised target: "nope"');
    expect(() => resolveTarget('', off)).toThrow('no target given');
  });

  it('has a module and a dependency entry for every available component', () => {
    for (const c of AVAILABLE_COMPONENTS) {
      expect(COMPONENT_MODULES[c]).toBeDefined();
      expect(MODULE_DEPENDENCIES[c]).toBeDefined();
    }
  });
});
