import type { Config } from '@logsvc/config';
import {
  PatternQuerier,
  PatternTee,
  ringPatternSink,
  type PatternIngesterClient,
  type PatternSink,
  type PatternTeeCounters,
} from '@logsvc/pattern';
import { RingError, type InstanceDesc } from '@logsvc/ring';
import { ClientPool, GrpcPatternClient } from '@logsvc/rpc';
import { LogsvcError } from '@logsvc/errors';
import type { Provider } from '@nestjs/common';
import type { Logger } from 'pino';
import { CONFIG, LOCAL_PATTERN_INGESTER, LOGGER } from '../../tokens';
import { sharesRing } from '../../cluster-mode';
import { rpcClientOptions } from '../../rpc-client-options';
import { PatternMetrics } from './pattern-metrics';
import { RingsService } from '../cluster/rings.service';

/** Clients of remote pattern ingesters by address. */
export const PATTERN_POOL = Symbol('logsvc.patternPool');
/** The distributor's tee to the pattern ingesters; null when `pattern_ingester.enabled` is off. */
export const PATTERN_TEE = Symbol('logsvc.patternTee');
/** The querier's way to the pattern ingesters; null when they are off. */
export const PATTERN_QUERIER = Symbol('logsvc.patternQuerier');

/** Line bytes the tee holds between flushes at most. */
const TEE_BUFFER_BYTES = 64 << 20;

export const patternPoolProvider: Provider = {
  provide: PATTERN_POOL,
  inject: [CONFIG],
  useFactory: (config: Config) =>
    new ClientPool<GrpcPatternClient>(
      (addr) =>
        new GrpcPatternClient(
          addr,
          rpcClientOptions(config, config.pattern_ingester.client_config.grpc_client_config),
        ),
    ),
};

/** This process's pattern ingester (LOCAL_PATTERN_INGESTER), while it serves. */
interface LocalPatternIngester extends PatternIngesterClient {
  readonly isServing: boolean;
}

/** What a process without a pattern ingester of its own answers in-process. */
const NO_PATTERN_INGESTER: LocalPatternIngester = {
  isServing: false,
  push: () => Promise.reject(new LogsvcError('unavailable', 'pattern ingester not running')),
  query: () => Promise.reject(new LogsvcError('unavailable', 'pattern ingester not running')),
};

/** The optional LOCAL_PATTERN_INGESTER injection of the providers below. */
const LOCAL = { token: LOCAL_PATTERN_INGESTER, optional: true };

/** How this process reaches pattern ingester `instance`: its own directly, others over gRPC. */
function clientFor(
  rings: RingsService,
  local: LocalPatternIngester,
  pool: ClientPool<GrpcPatternClient>,
): (instance: InstanceDesc) => PatternIngesterClient {
  const ownId = rings.settings('pattern-ingester').instanceId;
  return (instance) => (instance.id === ownId && local.isServing ? local : pool.get(instance.addr));
}

function patternRing(rings: RingsService) {
  const watcher = rings.watcher('pattern-ingester');
  if (!watcher) throw new RingError('the pattern ingester ring is not watched by this process');
  return watcher.ring();
}

/** The single binary's sink: its own pattern ingester, counted as Loki counts a ring push. */
function localSink(
  local: LocalPatternIngester,
  counters: PatternTeeCounters,
  rings: RingsService,
): PatternSink {
  const s = rings.settings('pattern-ingester');
  const addr = `${s.instanceAddr}:${s.instancePort}`;
  return async (tenant, streams) => {
    counters.streams('batched', streams.length);
    try {
      await local.push(tenant, streams);
      counters.appends(addr, 'success');
    } catch (err) {
      counters.appends(addr, 'fail');
      throw err;
    }
  };
}

export const patternTeeProvider: Provider = {
  provide: PATTERN_TEE,
  inject: [CONFIG, LOCAL, RingsService, PATTERN_POOL, PatternMetrics, LOGGER],
  useFactory: (
    config: Config,
    own: LocalPatternIngester | undefined,
    rings: RingsService,
    pool: ClientPool<GrpcPatternClient>,
    metrics: PatternMetrics,
    logger: Logger,
  ): PatternTee | null => {
    if (!config.pattern_ingester.enabled) return null;
    const local = own ?? NO_PATTERN_INGESTER;
    const log = logger.child({ component: 'pattern-tee' });
    const counters = metrics.teeCounters;
    const sink: PatternSink = sharesRing(config)
      ? ringPatternSink({
          ring: () => patternRing(rings),
          clientFor: clientFor(rings, local, pool),
          counters,
        })
      : localSink(local, counters, rings);
    const tee = config.pattern_ingester.tee_config;
    return new PatternTee({
      sink,
      flushIntervalMs: tee.batch_flush_interval,
      maxBufferedBytes: TEE_BUFFER_BYTES,
      maxInFlight: tee.flush_queue_size,
      onDropped: (reason, err) => log.debug({ reason, err }, 'pattern tee dropped a batch'),
      counters,
    });
  },
};

export const patternQuerierProvider: Provider = {
  provide: PATTERN_QUERIER,
  inject: [CONFIG, LOCAL, RingsService, PATTERN_POOL, PatternMetrics],
  useFactory: (
    config: Config,
    own: LocalPatternIngester | undefined,
    rings: RingsService,
    pool: ClientPool<GrpcPatternClient>,
    metrics: PatternMetrics,
  ): PatternQuerier | null => {
    if (!config.pattern_ingester.enabled) return null;
    const local = own ?? NO_PATTERN_INGESTER;
    const counters = metrics.querierCounters;
    if (!sharesRing(config)) return new PatternQuerier(() => [local], counters);
    const reach = clientFor(rings, local, pool);
    // Loki's IngesterQuerier: every healthy pattern ingester (GetAllHealthy), however many
    // are not; a dead one still healthy in the ring fails the query until its heartbeat expires.
    return new PatternQuerier(() => patternRing(rings).allHealthy('read').map(reach), counters);
  },
};
