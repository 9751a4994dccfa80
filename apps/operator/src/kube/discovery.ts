import type { ClusterCapabilities } from '@logsvc/operator-render';
import type { KubeClient } from './client';

/** What this cluster serves, where versions differ between Kubernetes releases. */
export async function discoverCapabilities(client: KubeClient): Promise<ClusterCapabilities> {
  const group = await client.get<{ versions?: { version: string }[] }>('/apis/policy');
  const versions = new Set((group?.versions ?? []).map((v) => v.version));
  // policy/v1 PodDisruptionBudget exists from 1.21; 1.20 serves only v1beta1.
  return { pdbApiVersion: versions.has('v1') ? 'policy/v1' : 'policy/v1beta1' };
}
