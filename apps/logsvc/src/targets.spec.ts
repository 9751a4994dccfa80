import { describe, expect, it } from 'vitest';
import { COMPONENTS, MODULE_DEPENDENCIES, resolveTarget } from './targets';

const off = { patternIngesterEnabled: false };

describe('resolveTarget', () => {
  it('expands all, read, write and backend', () => {
    expect(resolveTarget('all', off)).toEqual([
      'distributor',
      'ingester',
      'querier',
      'query-frontend',
      'query-scheduler',
      'ruler',
      'compactor',
      'ui',
    ]);
    expect(resolveTarget('read', off)).toEqual(['querier', 'query-frontend']);
    expect(resolveTarget('write', off)).toEqual(['distributor', 'ingester']);
    expect(resolveTarget('backend', off)).toEqual([
      'query-scheduler',
      'ruler',
      'compactor',
      'index-gateway',
    ]);
  });

  it('includes the pattern ingester in groups only when enabled, and always when named', () => {
    expect(resolveTarget('write', { patternIngesterEnabled: true })).toEqual([
      'distributor',
      'ingester',
      'pattern-ingester',
    ]);
    expect(resolveTarget('pattern-ingester', off)).toEqual(['pattern-ingester']);
  });

  it('accepts every component and comma-separated lists', () => {
    for (const c of COMPONENTS) expect(resolveTarget(c, off)).toEqual([c]);
    expect(resolveTarget('querier, ingester,querier', off)).toEqual(['ingester', 'querier']);
  });

  it('rejects unknown and empty targets', () => {
    expect(() => resolveTarget('querier,nope', off)).toThrow('unrecognised target: "nope"');
    expect(() => resolveTarget('', off)).toThrow('no target given');
  });

  it('has a dependency entry for every component', () => {
    for (const c of COMPONENTS) expect(MODULE_DEPENDENCIES[c]).toBeDefined();
  });
});
