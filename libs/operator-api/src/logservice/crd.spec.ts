import { describe, expect, it } from 'vitest';
import type { OpenApiSchema } from '../schema';
import { logServiceCrd } from './crd';

const versionOf = (crd: Record<string, unknown>) =>
  (crd.spec as { versions: Record<string, unknown>[] }).versions[0];

/** Every level of a structural schema has a type, except int-or-string in its one allowed shape. */
function unstructured(schema: OpenApiSchema, path: string): string[] {
  const problems: string[] = [];
  if (schema.type === undefined && schema['x-kubernetes-int-or-string'] !== true)
    problems.push(`${path}: no type`);
  if (schema.anyOf) {
    for (const alt of schema.anyOf) {
      if (alt.description !== undefined || alt.default !== undefined)
        problems.push(`${path}: anyOf alternatives may only carry value validation`);
    }
  }
  for (const [name, child] of Object.entries(schema.properties ?? {}))
    problems.push(...unstructured(child, `${path}.${name}`));
  if (schema.items) problems.push(...unstructured(schema.items, `${path}[]`));
  if (schema.additionalProperties)
    problems.push(...unstructured(schema.additionalProperties, `${path}.*`));
  return problems;
}

describe('logServiceCrd', () => {
  const crd = logServiceCrd();
  const version = versionOf(crd) as {
    schema: { openAPIV3Schema: OpenApiSchema };
    subresources: unknown;
    additionalPrinterColumns: { name: string; jsonPath: string }[];
  };
  const root = version.schema.openAPIV3Schema;
  const spec = root.properties!.spec;

  it('has a structural schema', () => {
    expect(unstructured(root, 'root')).toEqual([]);
  });

  it('carries the defaults, enums, bounds and formats of the spec', () => {
    expect(spec.required).toEqual(['version']);
    expect(spec.properties!.mode).toMatchObject({
      type: 'string',
      enum: ['SingleBinary', 'SimpleScalable', 'Microservices'],
      default: 'SingleBinary',
    });
    // What a size preset sets has no API server default: the operator fills it in, preset
    // first, so that only what is written wins over the preset.
    expect(spec.properties!.replicationFactor).toMatchObject({ minimum: 1, maximum: 5 });
    expect(spec.properties!.replicationFactor.default).toBeUndefined();
    const components = spec.properties!.components.properties!;
    expect(components.ingester.properties!.replicas.default).toBeUndefined();
    expect(components.queryScheduler.properties!.replicas.default).toBe(1);
    expect(components.compactor.properties!.replicas.default).toBe(1);
    expect(spec.properties!.size.enum).toEqual([
      '1x.demo',
      '1x.pico',
      '1x.extra-small',
      '1x.small',
      '1x.medium',
    ]);
    expect(spec.properties!.storage.default).toEqual({});
    expect(spec.properties!.storage.properties!.size).toMatchObject({
      'x-kubernetes-int-or-string': true,
      default: '10Gi',
    });
    const tenants = spec.properties!.limits.properties!.tenants;
    expect(tenants.additionalProperties!.properties!.retentionPeriod.pattern).toMatch(/h\|d\|w/);
  });

  it('has a status subresource and printer columns', () => {
    expect(version.subresources).toEqual({ status: {} });
    expect(version.additionalPrinterColumns.map((c) => c.name)).toEqual([
      'Mode',
      'Version',
      'Ready',
      'Reason',
      'Age',
    ]);
  });
});
