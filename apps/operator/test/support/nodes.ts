import type { KubeClient } from '../../src/kube/client';

const nowIso = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/**
 * A kubelet's status heartbeat for Node `name`: Ready, no pressure, room for 110 pods. The node
 * lifecycle controller marks it NotReady ~40s after the last one.
 */
export async function markNodeReady(client: KubeClient, name: string): Promise<void> {
  const now = nowIso();
  const condition = (type: string, status: string, reason: string) => ({
    type,
    status,
    reason,
    message: reason,
    lastHeartbeatTime: now,
    lastTransitionTime: now,
  });
  const capacity = { cpu: '32', memory: '64Gi', pods: '110', 'ephemeral-storage': '100Gi' };
  await client.call(
    'PATCH',
    `/api/v1/nodes/${name}/status`,
    {
      status: {
        capacity,
        allocatable: capacity,
        conditions: [
          condition('Ready', 'True', 'KubeletReady'),
          condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory'),
          condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure'),
          condition('PIDPressure', 'False', 'KubeletHasSufficientPID'),
        ],
        addresses: [
          { type: 'InternalIP', address: '127.0.0.1' },
          { type: 'Hostname', address: name },
        ],
        nodeInfo: {
          kubeletVersion: 'v1.20.2',
          kubeProxyVersion: 'v1.20.2',
          operatingSystem: 'linux',
          architecture: 'amd64',
          containerRuntimeVersion: 'logsvc-node-agent://0.1.0',
          osImage: 'local',
          kernelVersion: '',
          machineID: '',
          systemUUID: '',
          bootID: '',
        },
      },
    },
    'application/strategic-merge-patch+json',
  );
}
