import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { markNodeReady, provisionClaims, type KubeClient } from '@logsvc/operator/testing';
import {
  expandRefs,
  mountServiceAccount,
  mountsOf,
  prepareVolumes,
  resolveEnv,
  writeConfigMaps,
  writeSecrets,
  type Container,
  type PodObject,
} from './pod-setup';

/** What runs for an image: argv (the entrypoint), plus arguments for the pod's own IP. */
export type ImageRuntime = (
  image: string,
) => { entrypoint: string[]; networkArgs?: (ip: string) => string[] } | undefined;

export interface NodeAgentOptions {
  readonly client: KubeClient;
  readonly nodeName: string;
  /** Where pods and volumes live on disk. */
  readonly dir: string;
  readonly runtime: ImageRuntime;
  readonly log?: (message: string) => void;
  /**
   * The pods' loopback network, `127.0.N.` (default `127.0.1.`): another on a machine where
   * other node agents may run at once, so that no two pods share an address and port.
   */
  readonly ipPrefix?: string;
  /**
   * The API server pods reach (KUBERNETES_SERVICE_HOST/PORT) with their service account token;
   * without it pods get neither.
   */
  readonly apiServer?: string;
  /** More labels of the Node (e.g. `topology.kubernetes.io/zone`). */
  readonly labels?: Readonly<Record<string, string>>;
}

interface RunningPod {
  readonly pod: PodObject;
  readonly container: Container;
  readonly ip: string;
  readonly dir: string;
  process?: ChildProcess;
  exited?: Promise<void>;
  ready: boolean;
  restarts: number;
  startedAt: string;
  stopping: boolean;
  killTimer?: NodeJS.Timeout;
  reported?: string;
}

const nowIso = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
const microTime = () => new Date().toISOString().replace(/Z$/, '000Z');

/**
 * Plays the kubelet (and a hostPath volume provisioner) for one node, on this machine: it
 * registers the Node and keeps its Ready condition and lease fresh, runs each pod bound to it
 * as a local process on its own loopback IP (127.0.1.x) with the pod's args and env, volumes as
 * directories, reports status and readiness from the readiness probe, restarts crashed
 * containers, and on deletion sends SIGTERM, waits for the grace period, SIGKILLs, and removes
 * the pod. Secret and ConfigMap volumes are written as files. One container per pod; no
 * lifecycle hooks, no liveness probe, no images. With `apiServer`, pods get their service
 * account token and the API server's address.
 */
export class NodeAgent {
  private readonly pods = new Map<string, RunningPod>();
  private readonly freeIps: string[] = [];
  private nextIp = 1;
  private timers: NodeJS.Timeout[] = [];
  private busy = false;
  private stopped = false;

  constructor(private readonly options: NodeAgentOptions) {}

  private get client(): KubeClient {
    return this.options.client;
  }

  private log(message: string): void {
    this.options.log?.(`node-agent: ${message}`);
  }

  async start(): Promise<void> {
    await this.register();
    this.timers.push(setInterval(() => void this.heartbeat().catch(() => undefined), 5000));
    this.timers.push(setInterval(() => void this.tick(), 500));
  }

  /** Stops every pod process (SIGKILL) and the loops. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    await Promise.all(
      [...this.pods.values()].map(async (p) => {
        p.process?.kill('SIGKILL');
        await p.exited;
      }),
    );
  }

  /** The last lines each running pod's container wrote (for test failure messages). */
  recentOutput(lines = 5): string {
    const out: string[] = [];
    for (const p of this.pods.values()) {
      const file = join(p.dir, `container-${p.restarts}.log`);
      if (!existsSync(file)) continue;
      const tail = readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines);
      out.push(`--- ${p.pod.metadata.name}`, ...tail);
    }
    return out.join('\n');
  }

  /** The loopback IP of a running pod. */
  ipOf(namespace: string, name: string): string | undefined {
    for (const p of this.pods.values())
      if (p.pod.metadata.namespace === namespace && p.pod.metadata.name === name) return p.ip;
    return undefined;
  }

  private async register(): Promise<void> {
    const name = this.options.nodeName;
    const created = await this.client.raw('POST', '/api/v1/nodes', {
      metadata: {
        name,
        labels: {
          'kubernetes.io/hostname': name,
          'kubernetes.io/os': 'linux',
          'kubernetes.io/arch': 'amd64',
          ...this.options.labels,
        },
      },
    });
    if (created.status !== 201 && created.status !== 409)
      throw new Error(`registering ${name}: ${created.text}`);
    await this.client
      .call('POST', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases', {
        metadata: { name },
        spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: microTime() },
      })
      .catch(() => undefined);
    await this.heartbeat();
  }

  private async heartbeat(): Promise<void> {
    const name = this.options.nodeName;
    await markNodeReady(this.client, name);
    await this.client.call(
      'PATCH',
      `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${name}`,
      { spec: { renewTime: microTime(), holderIdentity: name } },
      'application/merge-patch+json',
    );
  }

  private async tick(): Promise<void> {
    if (this.busy || this.stopped) return;
    this.busy = true;
    try {
      await this.provisionVolumes();
      await this.syncPods();
    } catch (err) {
      this.log(`sync: ${(err as Error).message}`);
    } finally {
      this.busy = false;
    }
  }

  /** A hostPath PersistentVolume, pre-bound, for each claim no volume was made for. */
  private async provisionVolumes(): Promise<void> {
    for (const name of await provisionClaims(this.client, this.options.dir))
      this.log(`provisioned ${name}`);
  }

  private async syncPods(): Promise<void> {
    const list = await this.client.call<{ items: PodObject[] }>(
      'GET',
      `/api/v1/pods?fieldSelector=${encodeURIComponent(`spec.nodeName=${this.options.nodeName}`)}`,
    );
    const seen = new Set<string>();
    for (const pod of list.items) {
      seen.add(pod.metadata.uid);
      const running = this.pods.get(pod.metadata.uid);
      if (pod.metadata.deletionTimestamp !== undefined) {
        if (running) await this.terminate(running, pod);
        else await this.finalize(pod);
        continue;
      }
      if (running === undefined) {
        if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') continue;
        await this.startPod(pod);
      } else {
        await this.probe(running);
      }
    }
    // Pods removed without us (force deletion): their processes go too.
    for (const [uid, running] of this.pods) {
      if (seen.has(uid)) continue;
      running.process?.kill('SIGKILL');
      this.release(uid, running);
    }
  }

  private allocateIp(): string {
    return this.freeIps.shift() ?? `${this.options.ipPrefix ?? '127.0.1.'}${this.nextIp++}`;
  }

  private release(uid: string, running: RunningPod): void {
    clearTimeout(running.killTimer);
    this.pods.delete(uid);
    this.freeIps.push(running.ip);
  }

  private async startPod(pod: PodObject): Promise<void> {
    const container = pod.spec.containers[0];
    const runtime = this.options.runtime(container.image);
    if (runtime === undefined) return; // not an image this node runs
    const dir = join(this.options.dir, 'pods', pod.metadata.uid);
    const volumes = await prepareVolumes(this.client, pod, dir);
    if (volumes === undefined) return; // a claim is not bound yet
    const apiServer = this.options.apiServer;
    const account =
      apiServer === undefined
        ? { env: {} }
        : await mountServiceAccount(this.client, pod, dir, new URL(apiServer));
    if (account === undefined) return; // its token Secret is not made yet
    const ip = this.allocateIp();
    const paths = mountsOf(container, volumes);
    await writeConfigMaps(this.client, pod, volumes, paths);
    await writeSecrets(this.client, pod, volumes);
    const env = await resolveEnv(this.client, pod, container, ip);
    // Paths in env values too (LOGSVC_LOGSERVICE_FILE names a file of the config volume).
    for (const [name, value] of Object.entries(env)) env[name] = paths.rewrite(value);
    // Host paths already (not rewritten: the pod's /tmp is a mount of its own).
    for (const [name, value] of Object.entries(account.env)) env[name] ??= value;
    const argv = [
      ...(container.command ?? runtime.entrypoint),
      ...(container.args ?? []).map((a) => paths.rewrite(expandRefs(a, env))),
      ...(runtime.networkArgs?.(ip) ?? []),
    ];
    const running: RunningPod = {
      pod,
      container,
      ip,
      dir,
      ready: false,
      restarts: 0,
      startedAt: nowIso(),
      stopping: false,
    };
    this.pods.set(pod.metadata.uid, running);
    this.spawnProcess(running, argv, env);
    this.log(`started ${pod.metadata.namespace}/${pod.metadata.name} on ${ip}`);
    await this.reportStatus(running);
  }

  private spawnProcess(running: RunningPod, argv: string[], env: Record<string, string>): void {
    mkdirSync(running.dir, { recursive: true });
    const out = createWriteStream(join(running.dir, `container-${running.restarts}.log`));
    const child = spawn(argv[0], argv.slice(1), {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: running.dir, ...env },
      cwd: running.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.pipe(out);
    child.stderr!.pipe(out);
    running.process = child;
    running.startedAt = nowIso();
    running.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.log(`${running.pod.metadata.name} exited (${signal ?? code})`);
        resolve();
        if (
          !running.stopping &&
          !this.stopped &&
          this.pods.get(running.pod.metadata.uid) === running
        ) {
          // restartPolicy Always
          running.restarts++;
          running.ready = false;
          setTimeout(() => {
            if (!running.stopping && !this.stopped) this.spawnProcess(running, argv, env);
          }, 1000);
        }
      }),
    );
  }

  private async probe(running: RunningPod): Promise<void> {
    const http = running.container.readinessProbe?.httpGet;
    let ready = running.process?.exitCode === null;
    if (ready && http) {
      const port =
        typeof http.port === 'number'
          ? http.port
          : running.container.ports?.find((p) => p.name === http.port)?.containerPort;
      try {
        const res = await fetch(`http://${running.ip}:${port}${http.path}`, {
          signal: AbortSignal.timeout(1000),
        });
        await res.arrayBuffer();
        ready = res.status >= 200 && res.status < 400;
      } catch {
        ready = false;
      }
    }
    running.ready = ready;
    await this.reportStatus(running);
  }

  private async reportStatus(running: RunningPod): Promise<void> {
    const ready = running.ready ? 'True' : 'False';
    const key = `${ready}/${running.restarts}`;
    if (running.reported === key || running.stopping) return;
    const now = nowIso();
    const cond = (type: string, status: string) => ({
      type,
      status,
      lastProbeTime: null,
      lastTransitionTime: now,
    });
    const res = await this.client.raw(
      'PATCH',
      `/api/v1/namespaces/${running.pod.metadata.namespace}/pods/${running.pod.metadata.name}/status`,
      {
        status: {
          phase: 'Running',
          hostIP: '127.0.0.1',
          podIP: running.ip,
          podIPs: [{ ip: running.ip }],
          startTime: running.startedAt,
          conditions: [
            cond('Initialized', 'True'),
            cond('Ready', ready),
            cond('ContainersReady', ready),
          ],
          containerStatuses: [
            {
              name: running.container.name,
              image: running.container.image,
              imageID: '',
              ready: running.ready,
              started: true,
              restartCount: running.restarts,
              state: { running: { startedAt: running.startedAt } },
            },
          ],
        },
      },
      'application/strategic-merge-patch+json',
    );
    if (res.status === 200) running.reported = key;
  }

  /** Graceful deletion: SIGTERM, SIGKILL after the grace period, then remove the pod. */
  private async terminate(running: RunningPod, pod: PodObject): Promise<void> {
    if (!running.stopping) {
      running.stopping = true;
      const graceMs =
        (pod.metadata.deletionGracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30) *
        1000;
      this.log(`stopping ${pod.metadata.name} (grace ${graceMs / 1000}s)`);
      running.process?.kill('SIGTERM');
      running.killTimer = setTimeout(() => running.process?.kill('SIGKILL'), graceMs);
    }
    if (running.process?.exitCode === null && running.process.signalCode === null) return;
    await this.finalize(pod);
    this.release(pod.metadata.uid, running);
  }

  private async finalize(pod: PodObject): Promise<void> {
    const res = await this.client.raw(
      'DELETE',
      `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`,
      { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid } },
    );
    if (res.status >= 300 && res.status !== 404)
      this.log(`removing ${pod.metadata.name}: ${res.status} ${res.text.slice(0, 200)}`);
  }
}
