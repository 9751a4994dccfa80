import { toOpenApi, type OpenApiSchema } from '../schema';
import { specSchema } from './spec';
import { statusSchema } from './status';

export const GROUP = 'logsvc.io';
export const VERSION = 'v1alpha1';
export const API_VERSION = `${GROUP}/${VERSION}`;
export const KIND = 'LogService';
export const PLURAL = 'logservices';
export const CRD_NAME = `${PLURAL}.${GROUP}`;

/** The LogService CustomResourceDefinition (apiextensions.k8s.io/v1). */
export function logServiceCrd(): Record<string, unknown> {
  const schema: OpenApiSchema = {
    type: 'object',
    description: 'A logsvc cluster managed by the logsvc operator.',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: toOpenApi(specSchema),
      status: toOpenApi(statusSchema),
    },
    required: ['spec'],
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: CRD_NAME },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: {
        kind: KIND,
        listKind: `${KIND}List`,
        plural: PLURAL,
        singular: 'logservice',
        shortNames: ['lgs'],
        categories: ['logsvc'],
      },
      versions: [
        {
          name: VERSION,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: schema },
          subresources: { status: {} },
          additionalPrinterColumns: [
            { name: 'Mode', type: 'string', jsonPath: '.spec.mode' },
            { name: 'Version', type: 'string', jsonPath: '.status.version' },
            {
              name: 'Ready',
              type: 'string',
              jsonPath: '.status.conditions[?(@.type=="Ready")].status',
            },
            {
              name: 'Reason',
              type: 'string',
              jsonPath: '.status.conditions[?(@.type=="Ready")].reason',
            },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
        },
      ],
    },
  };
}
