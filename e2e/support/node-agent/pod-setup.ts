import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { KubeClient } from '@logsvc/operator/testing';

// How the node agent lays a pod out on this machine: volumes as directories, paths of the
// container rewritten to them (there is no mount namespace), env resolved like the kubelet.

export interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: {
    name: string;
    value?: string;
    valueFrom?: {
      fieldRef?: { fieldPath: string };
      secretKeyRef?: { name: string; key: string };
      configMapKeyRef?: { name: string; key: string };
    };
  }[];
  ports?: { name?: string; containerPort: number }[];
  volumeMounts?: { name: string; mountPath: string; subPath?: string }[];
  readinessProbe?: { httpGet?: { path: string; port: number | string } };
}

export interface PodObject {
  metadata: {
    name: string;
    namespace: string;
    uid: string;
    deletionTimestamp?: string;
    deletionGracePeriodSeconds?: number;
  };
  spec: {
    nodeName?: string;
    serviceAccountName?: string;
    automountServiceAccountToken?: boolean;
    containers: Container[];
    volumes?: {
      name: string;
      configMap?: { name: string; items?: { key: string; path: string }[] };
      secret?: { secretName: string };
      emptyDir?: Record<string, never>;
      persistentVolumeClaim?: { claimName: string };
    }[];
    terminationGracePeriodSeconds?: number;
  };
  status?: { phase?: string };
}

/** A mount path → host directory table, and a rewriter of paths in text. */
export class PathMap {
  private readonly entries: [string, string][];

  constructor(mounts: Record<string, string>) {
    // Longest first: /var/logsvc-shared before /var/logsvc.
    this.entries = Object.entries(mounts).sort((a, b) => b[0].length - a[0].length);
  }

  /** One pass, so a rewritten path (under /tmp, say) is not rewritten again. */
  rewrite(text: string): string {
    if (this.entries.length === 0) return text;
    const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    const re = new RegExp(
      `(${this.entries.map(([from]) => escape(from)).join('|')})(?=$|[/\\s"',\\]])`,
      'g',
    );
    const table = new Map(this.entries);
    return text.replace(re, (from) => table.get(from) ?? from);
  }
}

/** Directories for the pod's volumes; undefined while a claim is not bound yet. */
export async function prepareVolumes(
  client: KubeClient,
  pod: PodObject,
  podDir: string,
): Promise<Record<string, string> | undefined> {
  const dirs: Record<string, string> = {};
  const ns = pod.metadata.namespace;
  for (const volume of pod.spec.volumes ?? []) {
    if (volume.persistentVolumeClaim) {
      const pvc = await client.get<{ spec: { volumeName?: string } }>(
        `/api/v1/namespaces/${ns}/persistentvolumeclaims/${volume.persistentVolumeClaim.claimName}`,
      );
      if (!pvc?.spec.volumeName) return undefined;
      const pv = await client.get<{ spec: { hostPath?: { path: string } } }>(
        `/api/v1/persistentvolumes/${pvc.spec.volumeName}`,
      );
      if (!pv?.spec.hostPath) return undefined;
      dirs[volume.name] = pv.spec.hostPath.path;
    } else {
      dirs[volume.name] = join(podDir, 'volumes', volume.name);
    }
    mkdirSync(dirs[volume.name], { recursive: true });
  }
  return dirs;
}

/** The container's mounts as a PathMap. */
export function mountsOf(container: Container, volumeDirs: Record<string, string>): PathMap {
  const mounts: Record<string, string> = {};
  for (const m of container.volumeMounts ?? []) {
    const dir = volumeDirs[m.name];
    if (dir !== undefined) mounts[m.mountPath] = m.subPath ? join(dir, m.subPath) : dir;
  }
  return new PathMap(mounts);
}

/** Writes the pod's ConfigMap volumes, with the container's paths rewritten in them. */
export async function writeConfigMaps(
  client: KubeClient,
  pod: PodObject,
  volumeDirs: Record<string, string>,
  paths: PathMap,
): Promise<void> {
  for (const volume of pod.spec.volumes ?? []) {
    if (!volume.configMap) continue;
    const cm = await client.call<{ data?: Record<string, string> }>(
      'GET',
      `/api/v1/namespaces/${pod.metadata.namespace}/configmaps/${volume.configMap.name}`,
    );
    const data = cm.data ?? {};
    // With items, only those keys, each at its path (which may name a subdirectory).
    const files = volume.configMap.items ?? Object.keys(data).map((key) => ({ key, path: key }));
    for (const { key, path } of files) {
      if (data[key] === undefined) continue;
      const file = join(volumeDirs[volume.name], path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, paths.rewrite(data[key]));
    }
  }
}

/** Writes the pod's Secret volumes: each key a file, readable by its owner only. */
export async function writeSecrets(
  client: KubeClient,
  pod: PodObject,
  volumeDirs: Record<string, string>,
): Promise<void> {
  for (const volume of pod.spec.volumes ?? []) {
    if (!volume.secret) continue;
    const secret = await client.call<{ data?: Record<string, string> }>(
      'GET',
      `/api/v1/namespaces/${pod.metadata.namespace}/secrets/${volume.secret.secretName}`,
    );
    for (const [key, base64] of Object.entries(secret.data ?? {}))
      writeFileSync(join(volumeDirs[volume.name], key), Buffer.from(base64, 'base64'), {
        mode: 0o600,
      });
  }
}

/** `$(VAR)` references replaced as the kubelet does (unknown ones are kept). */
export function expandRefs(text: string, env: Record<string, string>): string {
  return text.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (m, name: string) => env[name] ?? m);
}

/** The container's environment, resolved. */
export async function resolveEnv(
  client: KubeClient,
  pod: PodObject,
  container: Container,
  ip: string,
): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  const fields: Record<string, string> = {
    'metadata.name': pod.metadata.name,
    'metadata.namespace': pod.metadata.namespace,
    'status.podIP': ip,
    'spec.nodeName': pod.spec.nodeName ?? '',
  };
  for (const e of container.env ?? []) {
    if (e.value !== undefined) env[e.name] = expandRefs(e.value, env);
    else if (e.valueFrom?.fieldRef) env[e.name] = fields[e.valueFrom.fieldRef.fieldPath] ?? '';
    else if (e.valueFrom?.secretKeyRef) {
      const ref = e.valueFrom.secretKeyRef;
      const secret = await client.get<{ data?: Record<string, string> }>(
        `/api/v1/namespaces/${pod.metadata.namespace}/secrets/${ref.name}`,
      );
      env[e.name] = Buffer.from(secret?.data?.[ref.key] ?? '', 'base64').toString('utf8');
    } else if (e.valueFrom?.configMapKeyRef) {
      const ref = e.valueFrom.configMapKeyRef;
      const cm = await client.get<{ data?: Record<string, string> }>(
        `/api/v1/namespaces/${pod.metadata.namespace}/configmaps/${ref.name}`,
      );
      env[e.name] = cm?.data?.[ref.key] ?? '';
    }
  }
  return env;
}

/** Directory and environment of the pod's service account credentials, as the kubelet gives. */
export interface ServiceAccountMount {
  readonly env: Record<string, string>;
}

/**
 * The pod's service account token, its CA and namespace written into the pod's directory (the
 * kubelet mounts them at /var/run/secrets/kubernetes.io/serviceaccount; with no mount namespace
 * here, LOGSVC_SERVICEACCOUNT_DIR names the directory), and the API server's address in
 * KUBERNETES_SERVICE_HOST/PORT. Undefined while the token controller has not made the token
 * Secret yet (Kubernetes 1.20); no env when the pod opts out of the token.
 */
export async function mountServiceAccount(
  client: KubeClient,
  pod: PodObject,
  podDir: string,
  apiServer: URL,
): Promise<ServiceAccountMount | undefined> {
  if (pod.spec.automountServiceAccountToken === false) return { env: {} };
  const ns = pod.metadata.namespace;
  const name = pod.spec.serviceAccountName ?? 'default';
  const sa = await client.get<{ secrets?: { name: string }[] }>(
    `/api/v1/namespaces/${ns}/serviceaccounts/${name}`,
  );
  const secretName = sa?.secrets?.[0]?.name;
  if (secretName === undefined) return undefined;
  const secret = await client.get<{ data?: Record<string, string> }>(
    `/api/v1/namespaces/${ns}/secrets/${secretName}`,
  );
  if (!secret?.data?.token) return undefined;
  const dir = join(podDir, 'serviceaccount');
  mkdirSync(dir, { recursive: true });
  for (const key of ['token', 'ca.crt', 'namespace'])
    writeFileSync(join(dir, key), Buffer.from(secret.data[key] ?? '', 'base64'));
  return {
    env: {
      KUBERNETES_SERVICE_HOST: apiServer.hostname,
      KUBERNETES_SERVICE_PORT: apiServer.port || '443',
      LOGSVC_SERVICEACCOUNT_DIR: dir,
    },
  };
}
