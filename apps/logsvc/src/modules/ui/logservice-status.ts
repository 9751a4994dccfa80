import { readFile } from 'node:fs/promises';
import { request } from 'node:https';
import { join } from 'node:path';
import { type LogServiceStatusView, SERVICE_ACCOUNT_DIR_ENV } from '@logsvc/api';

// The LogService's status, read from the Kubernetes API server as any in-cluster client does:
// the API server at KUBERNETES_SERVICE_HOST:KUBERNETES_SERVICE_PORT (set by the kubelet in
// every pod), the pod's service account token and the cluster CA from the mounted service
// account directory. The operator renders a Role that lets the pod `get` its own LogService.

const DEFAULT_SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
const TIMEOUT_MS = 3_000;

/** Who the LogService is: from the file the operator wrote (logservice.yaml). */
export interface LogServiceRef {
  readonly apiVersion: string;
  readonly namespace: string;
  readonly name: string;
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function get(url: URL, token: string, ca: Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        ca,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        timeout: TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/** The API server's own message of a refusal (a metav1.Status), or its first bytes. */
function refusal(status: number, body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (isMap(parsed) && typeof parsed.message === 'string') return `${status}: ${parsed.message}`;
  } catch {
    // not JSON: the text itself
  }
  return `${status}: ${body.slice(0, 200)}`;
}

/**
 * The LogService's status, or why it cannot be read: never throws (the view shows the spec
 * anyway). `env` is the process's environment.
 */
export async function readLogServiceStatus(
  ref: LogServiceRef,
  env: NodeJS.ProcessEnv = process.env,
): Promise<LogServiceStatusView> {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT ?? '443';
  if (!host)
    return { error: 'KUBERNETES_SERVICE_HOST is not set: this process does not run in a pod' };
  const dir = env[SERVICE_ACCOUNT_DIR_ENV] || DEFAULT_SERVICE_ACCOUNT_DIR;
  let token: string;
  let ca: Buffer;
  try {
    token = (await readFile(join(dir, 'token'), 'utf8')).trim();
    ca = await readFile(join(dir, 'ca.crt'));
  } catch (err) {
    return {
      error: `no service account credentials in ${dir} (automountServiceAccountToken off?): ${(err as Error).message}`,
    };
  }
  const hostPart = host.includes(':') ? `[${host}]` : host;
  const url = new URL(
    `https://${hostPart}:${port}/apis/${ref.apiVersion}/namespaces/${encodeURIComponent(ref.namespace)}/logservices/${encodeURIComponent(ref.name)}`,
  );
  let answer: { status: number; body: string };
  try {
    answer = await get(url, token, ca);
  } catch (err) {
    return { error: `reading the LogService from the API server: ${(err as Error).message}` };
  }
  if (answer.status !== 200)
    return {
      error: `the API server refused to read LogService ${ref.namespace}/${ref.name}: ${refusal(answer.status, answer.body)}`,
    };
  let resource: unknown;
  try {
    resource = JSON.parse(answer.body);
  } catch {
    return { error: 'the API server answered something that is not JSON' };
  }
  if (!isMap(resource)) return { error: 'the API server answered something that is not an object' };
  const meta = isMap(resource.metadata) ? resource.metadata : {};
  const status = isMap(resource.status) ? resource.status : {};
  return {
    ...(typeof meta.generation === 'number' ? { generation: meta.generation } : {}),
    ...pick(status),
  };
}

/** The status fields the view shows, those of the expected types only. */
function pick(status: Record<string, unknown>): LogServiceStatusView {
  const out: LogServiceStatusView = {};
  if (typeof status.observedGeneration === 'number')
    out.observedGeneration = status.observedGeneration;
  if (typeof status.lastObservedTime === 'string') out.lastObservedTime = status.lastObservedTime;
  if (typeof status.version === 'string') out.version = status.version;
  if (Array.isArray(status.conditions))
    out.conditions = status.conditions.filter(isMap).map((c) => ({
      type: String(c.type ?? ''),
      status: c.status === 'True' || c.status === 'False' ? c.status : 'Unknown',
      reason: String(c.reason ?? ''),
      message: String(c.message ?? ''),
      lastTransitionTime: String(c.lastTransitionTime ?? ''),
      ...(typeof c.observedGeneration === 'number'
        ? { observedGeneration: c.observedGeneration }
        : {}),
    }));
  if (isMap(status.components)) {
    const components: NonNullable<LogServiceStatusView['components']> = {};
    for (const [name, c] of Object.entries(status.components)) {
      if (!isMap(c)) continue;
      components[name] = {
        kind: String(c.kind ?? ''),
        replicas: Number(c.replicas ?? 0),
        readyReplicas: Number(c.readyReplicas ?? 0),
        updatedReplicas: Number(c.updatedReplicas ?? 0),
      };
    }
    out.components = components;
  }
  if (isMap(status.rollout) && typeof status.rollout.phase === 'string')
    out.rollout = {
      phase: status.rollout.phase,
      ...(typeof status.rollout.pod === 'string' ? { pod: status.rollout.pod } : {}),
      ...(typeof status.rollout.message === 'string' ? { message: status.rollout.message } : {}),
    };
  return out;
}
