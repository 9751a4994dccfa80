import type { RingMemberConfig } from '@logsvc/config';
import { Lifecycler } from '@logsvc/ring';
import type { Logger } from 'pino';
import type { RingName } from './ring-names';
import type { RingsService } from './rings.service';

/**
 * A lifecycler for a component that joins its ring at once (the distributor and index gateway
 * rings, whose members only need to be counted or found), with the ring's settings.
 */
export function memberLifecycler(
  rings: RingsService,
  name: RingName,
  port: number | undefined,
  logger: Logger,
): Lifecycler {
  const s: RingMemberConfig = rings.settings(name);
  return new Lifecycler({
    kv: rings.kv(name),
    key: s.key,
    id: s.instanceId,
    addr: `${s.instanceAddr}:${port ?? s.instancePort}`,
    zone: s.zone,
    numTokens: s.numTokens,
    heartbeatPeriodMs: s.heartbeatPeriodMs,
    heartbeatTimeoutMs: s.heartbeatTimeoutMs,
    joinAfterMs: 0,
    minReadyDurationMs: 0,
    finalSleepMs: 0,
    readinessCheckRingHealth: false,
    logger,
  });
}
