// The ring page's JSON (`GET /ring`, `/distributor/ring`, … with `Accept: application/json`):
// dskit's ring_http.go `httpResponse`, field names as Loki sends them, plus a few extras.

/** One ring member. */
export interface RingStatusShard {
  readonly id: string;
  /** `ACTIVE`, `LEAVING`, …, or `UNHEALTHY` when its heartbeat is older than the timeout. */
  readonly state: string;
  readonly address: string;
  /** Last heartbeat, RFC 3339 UTC. */
  readonly timestamp: string;
  /** When it joined, RFC 3339 UTC; Go's zero time `0001-01-01T00:00:00Z` when unknown. */
  readonly registered_timestamp: string;
  /** Always false: logsvc has no read-only members (kept for Loki's JSON shape). */
  readonly read_only: boolean;
  readonly read_only_updated_timestamp: string;
  readonly zone: string;
  readonly tokens: readonly number[];
  /** Extra: `tokens.length`. */
  readonly num_tokens: number;
  /** Extra: percent (0..100) of its zone's token space it owns. */
  readonly ownership: number;
  /** Extra: heartbeat younger than the timeout. */
  readonly healthy: boolean;
  /** Extra: milliseconds since the last heartbeat. */
  readonly heartbeat_age_ms: number;
}

export interface RingStatus {
  /** Members sorted by id. */
  readonly shards: readonly RingStatusShard[];
  /** When the status was taken, RFC 3339 UTC. */
  readonly now: string;
}
