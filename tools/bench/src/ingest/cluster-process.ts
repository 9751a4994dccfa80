import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EtcdServer, freePort, startEtcd } from '@logsvc/ring/testing';
import { cpuSeconds } from '../proc-stat';
import { ServerProcess } from './server-process';

export interface BenchClusterOptions {
  readonly replicationFactor: number;
  /** Ingester processes (at least the replication factor). */
  readonly ingesters: number;
  /** Flags every logsvc process gets (limits, WAL, log level), after its config file. */
  readonly flags: readonly string[];
  /** Extra `node` options of every logsvc process, e.g. `--cpu-prof`. */
  readonly nodeOptions?: readonly string[];
  /** Runs every logsvc process under `taskset -c <cpus>` when set (not etcd). */
  readonly cpus?: string | null;
  /** How long to wait for each /ready and for the ring to list every ingester (default 60 s). */
  readonly readyTimeoutMs?: number;
}

/** One logsvc process of the cluster. */
export interface ClusterMember {
  readonly name: string;
  readonly target: 'ingester' | 'distributor';
  readonly process: ServerProcess;
}

/** Per-process figure, keyed by member name ("etcd" too when it can be read). */
export type PerProcess = Record<string, number | undefined>;

/**
 * The YAML of one member: the ring on etcd, a chunks directory every member shares, its own
 * gRPC port, and ingesters ACTIVE at once (as e2e/support/cluster.ts).
 */
export function memberConfig(c: {
  readonly name: string;
  readonly target: string;
  readonly grpcPort: number;
  readonly etcd: string;
  readonly replicationFactor: number;
  readonly chunksDir: string;
}): string {
  return [
    `target: ${c.target}`,
    'server:',
    '  grpc_listen_address: 127.0.0.1',
    `  grpc_listen_port: ${c.grpcPort}`,
    'common:',
    `  replication_factor: ${c.replicationFactor}`,
    '  ring:',
    `    instance_id: ${c.name}`,
    '    instance_addr: 127.0.0.1',
    '    heartbeat_period: 1s',
    '    kvstore:',
    '      store: etcd',
    '      etcd:',
    `        endpoints: ["${c.etcd}"]`,
    'storage_config:',
    '  filesystem:',
    `    directory: ${c.chunksDir}`,
    'ingester:',
    '  lifecycler:',
    `    id: ${c.name}`,
    '    min_ready_duration: 0s',
    '    heartbeat_period: 1s',
    '',
  ].join('\n');
}

/**
 * A cluster of real logsvc processes on 127.0.0.1 for the ingest benchmark: a real etcd for the
 * ring, N ingesters, one distributor that the load is pushed to. Owns one temporary directory
 * (configs, data dirs, shared chunks) and every process: `dispose` removes them all, and so does
 * this process's exit if `dispose` never ran.
 */
export class BenchCluster {
  readonly members: ClusterMember[] = [];
  private readonly exitHook = (): void => this.killNow();

  private constructor(
    readonly root: string,
    private etcd: EtcdServer | undefined,
  ) {
    process.once('exit', this.exitHook);
  }

  /** Starts etcd, the ingesters, then the distributor; resolves when the ring is complete. */
  static async start(options: BenchClusterOptions): Promise<BenchCluster> {
    const cluster = new BenchCluster(
      mkdtempSync(join(tmpdir(), 'logsvc-bench-cluster-')),
      undefined,
    );
    try {
      await cluster.boot(options);
    } catch (err) {
      await cluster.dispose();
      throw err;
    }
    return cluster;
  }

  /** The distributor's base URL: where pushes go. */
  get url(): string {
    return this.distributor.process.url;
  }

  get distributor(): ClusterMember {
    return this.members.find((m) => m.target === 'distributor')!;
  }

  /** User + system CPU seconds so far of every process, etcd included. */
  cpuSeconds(): PerProcess {
    const out: PerProcess = {};
    for (const m of this.members) out[m.name] = cpuSeconds(m.process.pid);
    const etcdPid = this.etcd?.pid;
    if (etcdPid !== undefined) out.etcd = cpuSeconds(etcdPid);
    return out;
  }

  /** Peak RSS (VmHWM) of every logsvc process so far. */
  samplePeakRss(): PerProcess {
    const out: PerProcess = {};
    for (const m of this.members) out[m.name] = m.process.samplePeakRss();
    return out;
  }

  /** The tail of every member's stderr, for error messages. */
  stderr(): string {
    return this.members.map((m) => `--- ${m.name}\n${m.process.stderr()}`).join('\n');
  }

  /** Graceful stop: the distributor first, then the ingesters; SIGKILL after `timeoutMs`. */
  async stop(timeoutMs = 30_000): Promise<void> {
    for (const m of this.members) m.process.samplePeakRss();
    const distributors = this.members.filter((m) => m.target === 'distributor');
    const ingesters = this.members.filter((m) => m.target === 'ingester');
    await Promise.all(distributors.map((m) => m.process.stop(timeoutMs)));
    await Promise.all(ingesters.map((m) => m.process.stop(timeoutMs)));
  }

  /** Kills whatever still runs, stops etcd and removes every directory. */
  async dispose(): Promise<void> {
    process.removeListener('exit', this.exitHook);
    for (const m of this.members) await m.process.dispose();
    await this.etcd?.stop();
    this.etcd = undefined;
    rmSync(this.root, { recursive: true, force: true });
  }

  /** Synchronous last resort on exit: SIGKILL every member, remove the directory. */
  private killNow(): void {
    for (const m of this.members) if (m.process.running) m.process.child.kill('SIGKILL');
    rmSync(this.root, { recursive: true, force: true });
  }

  private async boot(o: BenchClusterOptions): Promise<void> {
    const readyTimeoutMs = o.readyTimeoutMs ?? 60_000;
    this.etcd = await startEtcd();
    for (let i = 1; i <= o.ingesters; i++) await this.add(`ingester-${i}`, 'ingester', o);
    await this.add('distributor-1', 'distributor', o);
    await this.waitForRing(o.ingesters, readyTimeoutMs);
  }

  private async add(
    name: string,
    target: ClusterMember['target'],
    o: BenchClusterOptions,
  ): Promise<void> {
    const grpcPort = await freePort();
    const configFile = join(this.root, `${name}.yaml`);
    writeFileSync(
      configFile,
      memberConfig({
        name,
        target,
        grpcPort,
        etcd: this.etcd!.endpoint,
        replicationFactor: o.replicationFactor,
        chunksDir: join(this.root, 'chunks'),
      }),
    );
    const proc = await ServerProcess.start({
      dataDir: join(this.root, name),
      flags: [`-config.file=${configFile}`, ...o.flags],
      nodeOptions: o.nodeOptions ?? [],
      cpus: o.cpus ?? null,
      readyTimeoutMs: o.readyTimeoutMs ?? 60_000,
    });
    this.members.push({ name, target, process: proc });
  }

  /** Waits until the distributor's /ring lists `count` ingesters, all ACTIVE. */
  private async waitForRing(count: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    for (;;) {
      try {
        const res = await fetch(`${this.url}/ring`, { headers: { accept: 'application/json' } });
        const body = (await res.json()) as { shards?: Array<{ id: string; state: string }> };
        const shards = body.shards ?? [];
        last = shards.map((s) => `${s.id} ${s.state}`).join(', ');
        if (shards.length === count && shards.every((s) => s.state === 'ACTIVE')) return;
      } catch (err) {
        last = (err as Error).message;
      }
      if (Date.now() > deadline)
        throw new Error(`the distributor's ring is not ${count} ACTIVE ingesters: ${last}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
