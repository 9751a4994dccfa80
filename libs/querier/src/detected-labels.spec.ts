import { describe, expect, it } from 'vitest';
import { detectLabels, isUuid } from './detected-labels';

describe('detectLabels', () => {
  it('counts values and leaves out labels whose values are all numbers or UUIDs', () => {
    const labels = detectLabels(
      new Map([
        ['app', ['api', 'web', 'db']],
        ['shard', ['1', '2', '3.5']],
        ['req', ['550e8400-e29b-41d4-a716-446655440000', '42']],
        ['env', ['prod', 'dev', 'prod']],
        ['mixed', ['1', 'one']],
      ]),
    );
    expect(labels).toEqual([
      { label: 'app', cardinality: 3 },
      { label: 'env', cardinality: 2 },
      { label: 'mixed', cardinality: 2 },
    ]);
  });

  it('keeps cluster, namespace, instance and pod even when their values look like IDs', () => {
    const labels = detectLabels(
      new Map([
        ['namespace', ['1', '2']],
        ['pod', ['550e8400-e29b-41d4-a716-446655440000']],
        ['instance', []],
      ]),
    );
    expect(labels).toEqual([
      { label: 'namespace', cardinality: 2 },
      { label: 'pod', cardinality: 1 },
    ]);
  });
});

describe('isUuid', () => {
  it('accepts the forms google/uuid parses', () => {
    expect(isUuid('550e8400-e29b-41d4-a716-446655440000')).toBe(true);
    expect(isUuid('{550e8400-e29b-41d4-a716-446655440000}')).toBe(true);
    expect(isUuid('urn:uuid:550e8400-e29b-41d4-a716-446655440000')).toBe(true);
    expect(isUuid('550e8400e29b41d4a716446655440000')).toBe(true);
    expect(isUuid('550e8400-e29b-41d4-a716-44665544000g')).toBe(false);
    expect(isUuid('550e8400e29b-41d4-a716-4466554400000')).toBe(false);
    expect(isUuid('api')).toBe(false);
  });
});
