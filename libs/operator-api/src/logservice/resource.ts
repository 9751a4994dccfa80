import type { LogServiceSpecInput, LogServiceStatus } from './types.generated';

/** A LogService object as the API server returns it. */
export interface LogServiceResource {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace: string;
    uid: string;
    generation?: number;
    resourceVersion?: string;
    creationTimestamp?: string;
    deletionTimestamp?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec: LogServiceSpecInput;
  status?: LogServiceStatus;
}
