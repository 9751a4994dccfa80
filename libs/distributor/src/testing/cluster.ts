// Test doubles for ring-aware code: a ring over a few instances, and ingesters to put behind
// it, real (in-process, WAL off) and with faults that can be switched on per test.

import type { PushRequest } from '@logsvc/api';
import {
  DEFAULT_INGESTER_CONFIG,
  Ingester,
  LocalIngesterClient,
  type IngesterClient,
  type PushOutcome,
} from '@logsvc/ingester';
import type { InstanceDesc, ReplicationRing, ReplicationSet } from '@logsvc/ring';

const TOKEN_SPACE = 2 ** 32;

/** An ACTIVE ring member with the given tokens. */
export function instanceDesc(id: string, tokens: readonly number[] = []): InstanceDesc {
  return {
    id,
    addr: `${id}:9095`,
    zone: '',
    state: 'ACTIVE',
    tokens: [...tokens].sort((a, b) => a - b),
    heartbeatMs: 0,
    registeredMs: 0,
  };
}

/**
 * A ring of healthy instances, as dskit places replicas: a token's write set is the first `rf`
 * distinct instances clockwise from it, the read set every instance; both absorb
 * `rf - quorum` errors (quorum = rf / 2 + 1) unless told otherwise.
 */
export class FakeTokenRing implements ReplicationRing {
  /** Every token with its owner, ascending. */
  private readonly owners: { token: number; instance: InstanceDesc }[];
  private readonly maxErrors: number;

  constructor(
    readonly instances: readonly InstanceDesc[],
    private readonly rf: number,
    readMaxErrors?: number,
  ) {
    this.owners = instances
      .flatMap((instance) => instance.tokens.map((token) => ({ token, instance })))
      .sort((a, b) => a.token - b.token);
    this.maxErrors = readMaxErrors ?? rf - (Math.floor(rf / 2) + 1);
  }

  /** `n` instances `ingester-<i>`, each with `tokensEach` tokens spread over the ring. */
  static spread(n: number, rf: number, tokensEach = 8): FakeTokenRing {
    const slots = n * tokensEach;
    const instances = Array.from({ length: n }, (_, i) =>
      instanceDesc(
        `ingester-${i}`,
        Array.from({ length: tokensEach }, (_, k) =>
          Math.floor(((k * n + i) * TOKEN_SPACE) / slots),
        ),
      ),
    );
    return new FakeTokenRing(instances, rf);
  }

  writeSet(token: number): ReplicationSet {
    let at = this.owners.findIndex((o) => o.token >= token);
    if (at < 0) at = 0;
    const chosen: InstanceDesc[] = [];
    for (let step = 0; step < this.owners.length && chosen.length < this.rf; step++) {
      const { instance } = this.owners[(at + step) % this.owners.length];
      if (!chosen.includes(instance)) chosen.push(instance);
    }
    return { instances: chosen, maxErrors: this.rf - (Math.floor(this.rf / 2) + 1) };
  }

  readSet(): ReplicationSet {
    return { instances: this.instances, maxErrors: this.maxErrors };
  }
}

/** A client that passes calls to `inner` until told to fail or to never answer. */
export class FaultyClient implements IngesterClient {
  /** Every call rejects with this. */
  failure: Error | undefined;
  /** Every call stays pending forever. */
  hang = false;
  pushes = 0;

  constructor(readonly inner: IngesterClient) {}

  push(tenant: string, request: PushRequest): Promise<PushOutcome> {
    this.pushes++;
    return this.fault() ?? this.inner.push(tenant, request);
  }
  query: IngesterClient['query'] = (...args) => this.fault() ?? this.inner.query(...args);
  labelNames: IngesterClient['labelNames'] = (...args) =>
    this.fault() ?? this.inner.labelNames(...args);
  labelValues: IngesterClient['labelValues'] = (...args) =>
    this.fault() ?? this.inner.labelValues(...args);
  series: IngesterClient['series'] = (...args) => this.fault() ?? this.inner.series(...args);
  volume: IngesterClient['volume'] = (...args) => this.fault() ?? this.inner.volume(...args);
  tenants: IngesterClient['tenants'] = () => this.fault() ?? this.inner.tenants();
  tailersCount: IngesterClient['tailersCount'] = (tenant) =>
    this.fault() ?? this.inner.tailersCount(tenant);
  /** Ends of open tails, to make this ingester's tail streams break (`breakTails`). */
  private readonly tailEnds = new Set<() => void>();
  tail: IngesterClient['tail'] = async (tenant, matchers, onEntries, onEnd) => {
    const fault = this.fault<never>();
    if (fault) return fault;
    const inner = await this.inner.tail(tenant, matchers, onEntries);
    const end = (): void => {
      this.tailEnds.delete(end);
      inner.close();
      onEnd?.(new Error('tail stream broke'));
    };
    this.tailEnds.add(end);
    return {
      close: () => {
        this.tailEnds.delete(end);
        inner.close();
      },
    };
  };

  /** Ends every open tail on this ingester as a lost connection would. */
  breakTails(): void {
    for (const end of [...this.tailEnds]) end();
  }

  private fault<T>(): Promise<T> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    if (this.hang) return new Promise<T>(() => {});
    return undefined;
  }
}

/** Real ingesters (in memory, WAL off, no background loops) behind faultable clients. */
export interface TestIngesters {
  readonly ingesters: Ingester[];
  readonly clients: FaultyClient[];
  /** The client of a ring instance, by its position in `instances`. */
  readonly clientFor: (instance: InstanceDesc) => FaultyClient;
  stop(): Promise<void>;
}

export async function startIngesters(instances: readonly InstanceDesc[]): Promise<TestIngesters> {
  const ingesters = instances.map(
    () =>
      new Ingester({
        config: {
          ...DEFAULT_INGESTER_CONFIG,
          wal: { enabled: false, dir: '', checkpoint_duration: 0 },
        },
        sink: { putChunks: async () => {} },
        backgroundLoops: false,
      }),
  );
  await Promise.all(ingesters.map((i) => i.start()));
  const clients = ingesters.map((ingester) => {
    return new FaultyClient(new LocalIngesterClient(ingester));
  });
  const byId = new Map(instances.map((d, i) => [d.id, clients[i]]));
  return {
    ingesters,
    clients,
    clientFor: (instance) => {
      const client = byId.get(instance.id);
      if (!client) throw new Error(`no ingester for ${instance.id}`);
      return client;
    },
    stop: async () => {
      await Promise.all(ingesters.map((i) => i.shutdown({ flush: false })));
    },
  };
}
