import { GROUP, namespacedCrd, VERSION } from '../crd-builder';
import { specSchema } from './spec';
import { statusSchema } from './status';

export { GROUP, VERSION };
export const API_VERSION = `${GROUP}/${VERSION}`;
export const KIND = 'LogService';
export const PLURAL = 'logservices';
export const CRD_NAME = `${PLURAL}.${GROUP}`;

/** The LogService CustomResourceDefinition (apiextensions.k8s.io/v1). */
export function logServiceCrd(): Record<string, unknown> {
  return namespacedCrd({
    kind: KIND,
    plural: PLURAL,
    singular: 'logservice',
    shortName: 'lgs',
    description: 'A logsvc cluster managed by the logsvc operator.',
    spec: specSchema,
    status: statusSchema,
    printerColumns: [
      { name: 'Mode', type: 'string', jsonPath: '.spec.mode' },
      { name: 'Version', type: 'string', jsonPath: '.status.version' },
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: 'Reason', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].reason' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
  });
}
