import { GROUP, namespacedCrd } from '../crd-builder';
import { ruleSpecSchema, ruleStatusSchema } from './schema';

export const RULE_KIND = 'LogServiceRule';
export const RULE_PLURAL = 'logservicerules';
export const RULE_CRD_NAME = `${RULE_PLURAL}.${GROUP}`;

/** The LogServiceRule CustomResourceDefinition (apiextensions.k8s.io/v1). */
export function logServiceRuleCrd(): Record<string, unknown> {
  return namespacedCrd({
    kind: RULE_KIND,
    plural: RULE_PLURAL,
    singular: 'logservicerule',
    shortName: 'lgsr',
    description: 'Alerting and recording rules for the ruler of the LogServices that select them.',
    spec: ruleSpecSchema,
    status: ruleStatusSchema,
    printerColumns: [
      { name: 'Tenant', type: 'string', jsonPath: '.spec.tenant' },
      { name: 'Valid', type: 'string', jsonPath: '.status.conditions[?(@.type=="Valid")].status' },
      { name: 'Reason', type: 'string', jsonPath: '.status.conditions[?(@.type=="Valid")].reason' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
  });
}
