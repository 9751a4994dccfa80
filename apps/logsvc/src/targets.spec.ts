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
      'querier',
      'compactor',
      'ruler',
      'ui',
    ]);
    expect(resolveTarget('all', on)).toEqual([
      'distributor',
      'ingester',
      'querier',
      'pattern-ingester',
      'compactor',
      'ruler',
      'ui',
    ]);
    expect(resolveTarget('read', off)).toEqual(['querier']);
    expect(resolveTarget('write', off)).toEqual(['distributor', 'ingester']);
    expect(resolveTarget('write', on)).toEqual(['distributor', 'ingester', 'pattern-ingester']);
    // Loki 3.4 has it in write; issue 16 in backend: logsvc has it in both, when enabled.
    expect(resolveTarget('backend', on)).toEqual([
      'index-gateway',
      'pattern-ingester',
      'compactor',
      'ruler',
      'ui',
    ]);
    expect(resolveTarget('backend', off)).toEqual(['index-gateway', 'compactor', 'ruler', 'ui']);
    expect(resolveTarget('write,backend', on)).toEqual([
      'distributor',
      'ingester',
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
      'querier',
      'index-gateway',
      'compactor',
      'ruler',
      'ui',
    ]);
    expect(resolveTarget('compactor', off)).toEqual(['compactor']);
    expect(resolveTarget('ruler', off)).toEqual(['ruler']);
    expect(resolveTarget('ui', off)).toEqual(['ui']);
  });

  it('refuses a target naming only components that do not exist yet, naming them', () => {
    const provides =
      '(this build provides distributor, ingester, querier, index-gateway, pattern-ingester, compactor, ruler, ui)';
    expect(() => resolveTarget('query-frontend', off)).toThrow(
      `-target=query-frontend: not available yet: query-frontend ${provides}`,
    );
  });

  it('runs the pattern ingester on its own only when it is enabled', () => {
    expect(resolveTarget('pattern-ingester', on)).toEqual(['pattern-ingester']);
    expect(() => resolveTarget('pattern-ingester', off)).toThrow(
      '-target=pattern-ingester: the pattern ingester is disabled: set pattern_ingester.enabled: true',
    );
  });

  it('refuses a component named on its own that does not exist yet, even beside others', () => {
    expect(() => resolveTarget('querier,query-frontend,query-scheduler', off)).toThrow(
      '-target=querier,query-frontend,query-scheduler: not available yet: query-frontend, query-scheduler',
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
