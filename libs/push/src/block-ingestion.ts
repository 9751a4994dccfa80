import { DiscardReason } from './discards';
import { PushError } from './errors';
import type { PushLimits } from './limits';

export type BlockIngestionLimits = Pick<
  PushLimits,
  'block_ingestion_until' | 'block_ingestion_status_code'
>;

/** Epoch milliseconds of block_ingestion_until, or undefined when ingestion is not blocked by config. */
export function blockedUntilMs(limits: BlockIngestionLimits): number | undefined {
  const v = limits.block_ingestion_until;
  if (v === null || v === undefined || v === '' || v === 0) return undefined;
  const ms = typeof v === 'number' ? v : Date.parse(v);
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * The answer for a push while `block_ingestion_until` lies in the future: status
 * block_ingestion_status_code (default 260) with Loki's message, or an empty message when the
 * status is 200 (the push is silently dropped). Undefined when pushes are allowed.
 */
export function checkBlockedIngestion(
  tenant: string,
  limits: BlockIngestionLimits,
  nowMs: number,
): PushError | undefined {
  const until = blockedUntilMs(limits);
  if (until === undefined || nowMs >= until) return undefined;
  const status = limits.block_ingestion_status_code;
  const when = new Date(Math.floor(until / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  const message =
    status === 200
      ? ''
      : `ingestion blocked for user ${tenant} until '${when}' with status code '${status}'`;
  // The kind says why (a limit on this tenant); the tenant's status code is what is answered.
  return new PushError('limit', message, { status, reason: DiscardReason.blockedIngestion });
}
