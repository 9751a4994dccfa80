/** A Kubernetes object as sent to the API server (server-side apply). */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

export interface ObjectMeta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller: boolean;
  blockOwnerDeletion: boolean;
}

/** The LogService a set of manifests belongs to. */
export interface Owner {
  readonly name: string;
  readonly namespace: string;
  readonly uid: string;
  /** `metadata.generation`: which version of the spec the objects were rendered from. */
  readonly generation?: number;
}

/** What differs between clusters, found by discovery. */
export interface ClusterCapabilities {
  /** `policy/v1` from Kubernetes 1.21, `policy/v1beta1` before. */
  readonly pdbApiVersion: 'policy/v1' | 'policy/v1beta1';
}
