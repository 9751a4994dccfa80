import type { SIZE_PRESETS } from './spec';
import type { ComponentSpecInput, LimitsInput, LogServiceSpecInput } from './types.generated';

export type SizePreset = (typeof SIZE_PRESETS)[number];

// The size presets of `spec.size`: LokiStack's (the Loki operator's
// internal/manifests/internal/sizes.go at v3.4.6), for the components logsvc has: replicas and
// resource requests per component, the replication factor and the global limits. LokiStack's
// gateway has no counterpart; the query scheduler keeps its default (LokiStack runs none); the
// volume sizes are not preset (`storage.size` is one size for every stateful pod and cannot
// change once the claims exist). Limits without a field in the spec (label name and value
// lengths, chunks per query, cardinality, volume series) are left out.

type Components = 'distributor' | 'ingester' | 'querier' | 'queryFrontend' | 'indexGateway';
type Sized = Components | 'compactor' | 'ruler';

interface Preset {
  readonly replicationFactor: number;
  readonly replicas: Readonly<Record<Components | 'ruler', number>>;
  /** Requests as `[cpu, memory]`; none for 1x.demo. */
  readonly requests?: Readonly<Record<Sized, readonly [string, string]>>;
  readonly limits: LimitsInput;
}

const limits = (
  ingestionRateMB: number,
  ingestionBurstSizeMB: number,
  maxGlobalStreamsPerUser?: number,
): LimitsInput => ({
  ingestionRateMB,
  ingestionBurstSizeMB,
  ...(maxGlobalStreamsPerUser === undefined ? {} : { maxGlobalStreamsPerUser }),
  maxLabelNamesPerSeries: 30,
  maxLineSize: '256000',
  perStreamRateLimit: '5MB',
  perStreamRateLimitBurst: '15MB',
  maxEntriesLimitPerQuery: 5000,
  maxQuerySeries: 500,
  queryTimeout: '3m',
});

const replicas = (
  distributor: number,
  ingester: number,
  querier: number,
  queryFrontend: number,
  indexGateway: number,
  ruler: number,
) => ({ distributor, ingester, querier, queryFrontend, indexGateway, ruler });

export const PRESETS: Readonly<Record<SizePreset, Preset>> = {
  '1x.demo': {
    replicationFactor: 1,
    replicas: replicas(1, 1, 1, 1, 1, 1),
    limits: limits(4, 6),
  },
  '1x.pico': {
    replicationFactor: 2,
    replicas: replicas(2, 3, 2, 2, 2, 2),
    requests: {
      distributor: ['500m', '500Mi'],
      ingester: ['500m', '3Gi'],
      querier: ['750m', '1.5Gi'],
      queryFrontend: ['500m', '500Mi'],
      indexGateway: ['150m', '250Mi'],
      compactor: ['500m', '500Mi'],
      ruler: ['500m', '1Gi'],
    },
    limits: limits(4, 6, 10000),
  },
  '1x.extra-small': {
    replicationFactor: 2,
    replicas: replicas(2, 2, 2, 2, 2, 2),
    requests: {
      distributor: ['1', '1Gi'],
      ingester: ['2', '8Gi'],
      querier: ['1.5', '3Gi'],
      queryFrontend: ['1', '1Gi'],
      indexGateway: ['500m', '1Gi'],
      compactor: ['1', '2Gi'],
      ruler: ['1', '2Gi'],
    },
    limits: limits(4, 6, 10000),
  },
  '1x.small': {
    replicationFactor: 2,
    replicas: replicas(2, 2, 2, 2, 2, 2),
    requests: {
      distributor: ['2', '2Gi'],
      ingester: ['4', '20Gi'],
      querier: ['4', '4Gi'],
      queryFrontend: ['4', '2.5Gi'],
      indexGateway: ['1', '2Gi'],
      compactor: ['2', '4Gi'],
      ruler: ['4', '8Gi'],
    },
    limits: limits(15, 20, 10000),
  },
  '1x.medium': {
    replicationFactor: 2,
    replicas: replicas(2, 3, 3, 2, 2, 2),
    requests: {
      distributor: ['2', '2Gi'],
      ingester: ['6', '30Gi'],
      querier: ['6', '10Gi'],
      queryFrontend: ['4', '2.5Gi'],
      indexGateway: ['1', '2Gi'],
      compactor: ['2', '4Gi'],
      ruler: ['8', '16Gi'],
    },
    limits: limits(50, 20, 25000),
  },
};

/** What a preset writes into a spec, as if written there. */
export function presetSpec(size: SizePreset): Omit<LogServiceSpecInput, 'version'> {
  const preset = PRESETS[size];
  const components: Partial<Record<Sized, ComponentSpecInput>> = {};
  const sized: readonly Sized[] = [
    'distributor',
    'ingester',
    'querier',
    'queryFrontend',
    'indexGateway',
    'compactor',
    'ruler',
  ];
  for (const name of sized) {
    const request = preset.requests?.[name];
    components[name] = {
      ...(name === 'compactor' ? {} : { replicas: preset.replicas[name] }),
      ...(request ? { resources: { requests: { cpu: request[0], memory: request[1] } } } : {}),
    };
  }
  return {
    replicationFactor: preset.replicationFactor,
    components,
    limits: { global: preset.limits },
  };
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `written` over `under`: maps key by key, any other written value wins as it is. */
function over(under: unknown, written: unknown): unknown {
  if (written === undefined) return under;
  if (!isMap(under) || !isMap(written)) return written;
  const out: Record<string, unknown> = { ...under };
  for (const [key, value] of Object.entries(written)) out[key] = over(under[key], value);
  return out;
}

/**
 * A valid spec as written with its size preset filled in under it: each field the spec writes
 * wins (down to one resource request). Without `size`, the spec itself.
 */
export function withPreset(raw: unknown): unknown {
  if (!isMap(raw) || typeof raw.size !== 'string' || !(raw.size in PRESETS)) return raw;
  return over(presetSpec(raw.size as SizePreset), raw);
}
