import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { KubeClient, loadKubeConfig } from '../../src/kube/client';

const run = promisify(execFile);
export const REPO_ROOT = join(__dirname, '..', '..', '..', '..');
const SCRIPT = join(REPO_ROOT, 'tools', 'k8s', 'control-plane.sh');

/** The bin directory of the control plane binaries, or undefined when they are not built. */
export function controlPlaneBin(): string | undefined {
  const cache = process.env.LOGSVC_K8S_CACHE ?? join(homedir(), '.cache', 'logsvc-k8s', '1.20.2');
  const bin = join(cache, 'bin');
  return ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler'].every((b) =>
    existsSync(join(bin, b)),
  )
    ? bin
    : undefined;
}

/** The namespace the operator tests run their LogServices in, and its LogServices' path. */
export const NS = 'default';
export const LS = `/apis/logsvc.io/v1alpha1/namespaces/${NS}/logservices`;

/** Says loudly why a tier-2/3 file is skipped (never silently). */
export function skipMessage(): string | undefined {
  if (controlPlaneBin() !== undefined) return undefined;
  const message =
    'SKIPPED: Kubernetes control plane binaries not built; run `tools/k8s/control-plane.sh build` (CI: .ci/run does)';
  process.stderr.write(`${message}\n`);
  return message;
}

export interface ControlPlane {
  readonly dir: string;
  readonly kubeconfig: string;
  readonly apiUrl: string;
  readonly client: KubeClient;
  stop(): Promise<void>;
}

/** Starts etcd, kube-apiserver, kube-controller-manager and kube-scheduler on 127.0.0.1. */
export async function startControlPlane(): Promise<ControlPlane> {
  const dir = mkdtempSync(join(tmpdir(), 'logsvc-k8s-'));
  const stop = async () => {
    await run('bash', [SCRIPT, 'stop', dir]).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await run('bash', [SCRIPT, 'start', dir], { timeout: 150_000 });
  } catch (err) {
    await stop();
    throw err;
  }
  const env = Object.fromEntries(
    readFileSync(join(dir, 'env'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(/=(.*)/s).slice(0, 2)),
  ) as Record<string, string>;
  const kubeconfig = join(dir, 'kubeconfig');
  const client = new KubeClient(await loadKubeConfig(kubeconfig));
  return { dir, kubeconfig, apiUrl: env.KUBE_API_URL, client, stop };
}

/** Polls until `check` returns a value (not undefined/false) or the time is up. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
}

/** Creates the CRDs from crds/ (LogService, LogServiceRule) and waits until they are served. */
export async function installCrd(client: KubeClient): Promise<void> {
  for (const plural of ['logservices', 'logservicerules']) {
    const name = `${plural}.logsvc.io`;
    const crd = parse(readFileSync(join(REPO_ROOT, 'crds', `${name}.yaml`), 'utf8'));
    await client.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    await waitFor(`the CRD ${name} to be established`, async () => {
      const got = await client.get<{
        status?: { conditions?: { type: string; status: string }[] };
      }>(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`);
      return got?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
    });
    await waitFor(
      `the ${plural} API`,
      async () => (await client.raw('GET', `/apis/logsvc.io/v1alpha1/${plural}`)).status === 200,
    );
  }
}

export function readExample(name: string): Record<string, unknown> {
  return parse(readFileSync(join(REPO_ROOT, 'crds', 'examples', name), 'utf8'));
}
