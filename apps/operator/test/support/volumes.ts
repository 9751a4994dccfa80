import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeClient } from '../../src/kube/client';

interface ClaimItem {
  metadata: { name: string; namespace: string; uid: string };
  spec: {
    volumeName?: string;
    accessModes?: string[];
    storageClassName?: string;
    resources?: { requests?: { storage?: string } };
  };
  status?: { phase?: string };
}

/**
 * Plays a volume provisioner: a hostPath PersistentVolume under `dir`, pre-bound, for each claim
 * of the cluster no volume was made for (so that the scheduler can place the pods that mount
 * them). Returns the names of the volumes it made.
 */
export async function provisionClaims(client: KubeClient, dir: string): Promise<string[]> {
  const claims = await client.call<{ items: ClaimItem[] }>('GET', '/api/v1/persistentvolumeclaims');
  const made: string[] = [];
  for (const pvc of claims.items) {
    if (pvc.spec.volumeName || pvc.status?.phase === 'Bound') continue;
    const name = `pv-${pvc.metadata.namespace}-${pvc.metadata.name}`;
    const path = join(dir, 'volumes', `${pvc.metadata.namespace}-${pvc.metadata.name}`);
    mkdirSync(path, { recursive: true });
    const res = await client.raw('POST', '/api/v1/persistentvolumes', {
      metadata: { name },
      spec: {
        capacity: { storage: pvc.spec.resources?.requests?.storage ?? '1Gi' },
        accessModes: pvc.spec.accessModes ?? ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Retain',
        storageClassName: pvc.spec.storageClassName ?? '',
        hostPath: { path, type: 'DirectoryOrCreate' },
        claimRef: {
          namespace: pvc.metadata.namespace,
          name: pvc.metadata.name,
          uid: pvc.metadata.uid,
        },
      },
    });
    if (res.status === 201) made.push(name);
  }
  return made;
}
