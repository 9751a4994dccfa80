/** Loki's drain settings (drain.DefaultConfig and the pattern_ingester keys that change them). */
export interface DrainConfig {
  /** Depth of the prefix tree plus two: the first tokens that choose a line's leaf. */
  readonly logClusterDepth: number;
  /** Share of equal tokens a line needs to join a cluster. */
  readonly simTh: number;
  /** Children a tree node has at most; more tokens share the `<_>` child. */
  readonly maxChildren: number;
  /** Clusters (patterns) per stream at most (`pattern_ingester.max_clusters`). */
  readonly maxClusters: number;
  /** `pattern_ingester.max_eviction_ratio`. */
  readonly maxEvictionRatio: number;
  /** Longer lines are not used (`pattern_ingester.max_allowed_line_length`). */
  readonly maxAllowedLineLength: number;
}

export const DEFAULT_DRAIN_CONFIG: DrainConfig = {
  logClusterDepth: 30,
  simTh: 0.3,
  maxChildren: 15,
  maxClusters: 300,
  maxEvictionRatio: 0.25,
  maxAllowedLineLength: 3000,
};

/** Lines with fewer or more tokens than these are not used. */
export const MIN_TOKENS = 4;
export const MAX_TOKENS = 80;
