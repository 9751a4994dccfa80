import { toOpenApi, type OpenApiSchema } from '../schema';
import { GROUP, VERSION } from '../logservice/crd';
import { ruleSpecSchema, ruleStatusSchema } from './schema';

export const RULE_KIND = 'LogServiceRule';
export const RULE_PLURAL = 'logservicerules';
export const RULE_CRD_NAME = `${RULE_PLURAL}.${GROUP}`;

/** The LogServiceRule CustomResourceDefinition (apiextensions.k8s.io/v1). */
export function logServiceRuleCrd(): Record<string, unknown> {
  const schema: OpenApiSchema = {
    type: 'object',
    description: 'Alerting and recording rules for the ruler of the LogServices that select them.',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: toOpenApi(ruleSpecSchema),
      status: toOpenApi(ruleStatusSchema),
    },
    required: ['spec'],
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: RULE_CRD_NAME },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: {
        kind: RULE_KIND,
        listKind: `${RULE_KIND}List`,
        plural: RULE_PLURAL,
        singular: 'logservicerule',
        shortNames: ['lgsr'],
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
            { name: 'Tenant', type: 'string', jsonPath: '.spec.tenant' },
            {
              name: 'Valid',
              type: 'string',
              jsonPath: '.status.conditions[?(@.type=="Valid")].status',
            },
            {
              name: 'Reason',
              type: 'string',
              jsonPath: '.status.conditions[?(@.type=="Valid")].reason',
            },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
        },
      ],
    },
  };
}
