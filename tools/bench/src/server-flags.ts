/** Server flags of both benchmarks: quiet logs and limits lifted, so the code is measured. */
export const LIFTED_LIMITS = [
  '-log.level=warn',
  '-distributor.ingestion-rate-limit-mb=1000000',
  '-distributor.ingestion-burst-size-mb=1000000',
  '-ingester.per-stream-rate-limit=1TB',
  '-ingester.per-stream-rate-limit-burst=1TB',
  '-ingester.max-global-streams-per-user=1000000',
];
