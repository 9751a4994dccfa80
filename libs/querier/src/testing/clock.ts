/** Test helper: nanosecond units, and the "now" the querier's pool tests query at. */
export const S = 1_000_000_000n;
export const MIN = 60n * S;
export const HOUR = 60n * MIN;
export const NOW = 1_700_000_000n * S;
