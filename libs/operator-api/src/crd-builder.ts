import { toOpenApi, type OpenApiSchema } from './schema';

type SchemaNode = Parameters<typeof toOpenApi>[0];

export const GROUP = 'logsvc.io';
export const VERSION = 'v1alpha1';

/** What tells one of the operator's custom resources apart. */
export interface CrdShape {
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  readonly shortName: string;
  readonly description: string;
  readonly spec: SchemaNode;
  readonly status: SchemaNode;
  readonly printerColumns: readonly Record<string, string>[];
}

/**
 * A namespaced CustomResourceDefinition (apiextensions.k8s.io/v1) of group `logsvc.io`, one
 * served and stored version with a status subresource, its schema from the zod schemas.
 */
export function namespacedCrd(shape: CrdShape): Record<string, unknown> {
  const schema: OpenApiSchema = {
    type: 'object',
    description: shape.description,
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: toOpenApi(shape.spec),
      status: toOpenApi(shape.status),
    },
    required: ['spec'],
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${shape.plural}.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: {
        kind: shape.kind,
        listKind: `${shape.kind}List`,
        plural: shape.plural,
        singular: shape.singular,
        shortNames: [shape.shortName],
        categories: ['logsvc'],
      },
      versions: [
        {
          name: VERSION,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: schema },
          subresources: { status: {} },
          additionalPrinterColumns: shape.printerColumns,
        },
      ],
    },
  };
}
