// A cluster of real logsvc processes on 127.0.0.1 sharing an etcd ring and a filesystem store.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RingStatus } from '@logsvc/api';
import { type EtcdServer, startEtcd } from '@logsvc/ring/testing';
import { expect } from 'vitest';
import { stringify } from 'yaml';
import { freePort } from '@logsvc/bench/testing';
import { type ServerProcess, startServer } from './server';

export interface ClusterOptions {
  /** The etcd endpoint (`host:port`) of the ring. */
  readonly etcd: string;
  readonly replicationFactor: number;
  /** Extra flags every process gets (limits, WAL settings...). */
  readonly extraFlags?: readonly string[];
  /** Config merged (deeply) over every member's generated config. */
  readonly config?: ConfigTree;
}

/** A YAML config as a plain object. */
export interface ConfigTree {
  readonly [key: string]: unknown;
}

export interface MemberOptions {
  /** Config merged (deeply) over this member's config, after the cluster's. */
  readonly config?: ConfigTree;
  /** Resolve once spawned instead of once /ready answers 200 (default true: wait). */
  readonly waitReady?: boolean;
  /** Environment variables of this member's process (kept on restarts). */
  readonly env?: Readonly<Record<string, string>>;
}

function isTree(value: unknown): value is ConfigTree {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `over` merged into `base`: objects key by key, anything else replaced. */
export function mergeConfig(base: ConfigTree, over: ConfigTree): ConfigTree {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = isTree(b) && isTree(v) ? mergeConfig(b, v) : v;
  }
  return out;
}

/** One member process: its target, identity and data directory survive restarts. */
export interface Member {
  readonly name: string;
  readonly target: string;
  readonly dataDir: string;
  readonly grpcPort: number;
  readonly configFile: string;
  readonly env?: Readonly<Record<string, string>>;
  process: ServerProcess;
}

/** Starts of a member that may fail on a port taken meanwhile (`Cluster.add`). */
const PORT_ATTEMPTS = 3;

/**
 * Starts and restarts cluster members. Every member gets the same ring (etcd) and object store
 * (a shared chunks directory), its own data directory (WAL, tokens) and ports.
 */
export class Cluster {
  readonly root = mkdtempSync(join(tmpdir(), 'logsvc-cluster-'));
  readonly chunksDir = join(this.root, 'chunks');
  readonly members: Member[] = [];

  constructor(private readonly options: ClusterOptions) {}

  /**
   * Starts a member and (unless told not to) waits until its /ready answers 200. A port found
   * free can be taken by another test's process before the member binds it: the member is
   * then started again on new ports.
   */
  async add(name: string, target: string, options: MemberOptions = {}): Promise<Member> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.addOnce(name, target, options);
      } catch (err) {
        if (attempt >= PORT_ATTEMPTS || !String(err).includes('EADDRINUSE')) throw err;
      }
    }
  }

  private async addOnce(name: string, target: string, options: MemberOptions): Promise<Member> {
    const dataDir = join(this.root, name);
    const grpcPort = await freePort();
    const configFile = join(this.root, `${name}.yaml`);
    let config = this.config(name, target, grpcPort);
    if (this.options.config) config = mergeConfig(config, this.options.config);
    if (options.config) config = mergeConfig(config, options.config);
    writeFileSync(configFile, stringify(config));
    const member: Member = {
      name,
      target,
      dataDir,
      grpcPort,
      configFile,
      ...(options.env ? { env: options.env } : {}),
      process: await this.spawn(dataDir, configFile, undefined, options.waitReady, options.env),
    };
    this.members.push(member);
    return member;
  }

  /** Starts a stopped (or killed) member again with the same identity, data and ports. */
  async restart(member: Member): Promise<void> {
    if (member.process.running) throw new Error(`${member.name} is still running`);
    member.process = await this.spawn(
      member.dataDir,
      member.configFile,
      member.process.port,
      true,
      member.env,
    );
  }

  async dispose(): Promise<void> {
    for (const m of this.members) await m.process.dispose();
    rmSync(this.root, { recursive: true, force: true });
  }

  private spawn(
    dataDir: string,
    configFile: string,
    port?: number,
    waitReady = true,
    env?: Readonly<Record<string, string>>,
  ): Promise<ServerProcess> {
    return startServer({
      dataDir,
      ...(env ? { env } : {}),
      ...(port === undefined ? {} : { port }),
      flags: [`-config.file=${configFile}`, ...(this.options.extraFlags ?? [])],
      readyTimeoutMs: 60_000,
      waitReady,
    });
  }

  private config(name: string, target: string, grpcPort: number): ConfigTree {
    return {
      target,
      auth_enabled: false,
      server: { grpc_listen_address: '127.0.0.1', grpc_listen_port: grpcPort },
      common: {
        replication_factor: this.options.replicationFactor,
        ring: {
          instance_id: name,
          instance_addr: '127.0.0.1',
          heartbeat_period: '1s',
          kvstore: { store: 'etcd', etcd: { endpoints: [this.options.etcd] } },
        },
      },
      storage_config: { filesystem: { directory: this.chunksDir } },
      ingester: { lifecycler: { id: name, min_ready_duration: '0s', heartbeat_period: '1s' } },
    };
  }
}

/** A Cluster's options but its ring: EtcdCluster starts an etcd of its own. */
export type EtcdClusterOptions = Omit<ClusterOptions, 'etcd'>;

/** A Cluster on an etcd started for it; dispose() stops the members, then the etcd. */
export class EtcdCluster extends Cluster {
  private constructor(
    readonly etcd: EtcdServer,
    options: EtcdClusterOptions,
  ) {
    super({ ...options, etcd: etcd.endpoint });
  }

  static async start(options: EtcdClusterOptions): Promise<EtcdCluster> {
    return new EtcdCluster(await startEtcd(), options);
  }

  override async dispose(): Promise<void> {
    try {
      await super.dispose();
    } finally {
      await this.etcd.stop();
    }
  }
}

/** The cluster of issue 14's tests: three ingesters, two distributors and a querier. */
export interface ClassicCluster {
  readonly cluster: EtcdCluster;
  readonly ingesters: Member[];
  readonly distributors: Member[];
  readonly querier: Member;
}

/** Starts the members of a ClassicCluster one after the other, each ready before the next. */
export async function startClassicCluster(options: EtcdClusterOptions): Promise<ClassicCluster> {
  const cluster = await EtcdCluster.start(options);
  const ingesters: Member[] = [];
  for (const name of ['ingester-1', 'ingester-2', 'ingester-3'])
    ingesters.push(await cluster.add(name, 'ingester'));
  const distributors = [
    await cluster.add('distributor-1', 'distributor'),
    await cluster.add('distributor-2', 'distributor'),
  ];
  const querier = await cluster.add('querier-1', 'querier');
  return { cluster, ingesters, distributors, querier };
}

/**
 * The value of metric `name` on a member's `/metrics` (the first sample whose labels include
 * `labels`), or undefined when it has none.
 */
export async function memberMetric(
  member: Member,
  name: string,
  labels: Record<string, string> = {},
): Promise<number | undefined> {
  const text = await (await fetch(`${member.process.url}/metrics`)).text();
  for (const line of text.split('\n')) {
    if (!line.startsWith(name + '{') && !line.startsWith(name + ' ')) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

/** A member's ring page (`/ring`, `/ruler/ring`...) as JSON; fails unless it answers 200. */
export async function ringPage(member: Member, path: string): Promise<RingStatus> {
  const res = await fetch(`${member.process.url}${path}`, {
    headers: { accept: 'application/json' },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as RingStatus;
}
