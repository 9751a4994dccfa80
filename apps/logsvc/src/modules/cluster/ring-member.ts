import type { RingMemberConfig } from '@logsvc/config';
import { Lifecycler } from '@logsvc/ring';
import type { OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { LifecycleService } from '../../lifecycle/lifecycle-service';
import type { ServiceRegistry } from '../../lifecycle/service-registry';
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
  autoForgetUnhealthyAfterMs?: number,
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
    ...(autoForgetUnhealthyAfterMs === undefined ? {} : { autoForgetUnhealthyAfterMs }),
    logger,
  });
}

/**
 * The service of a component whose only lifecycle is its ring membership (the distributor,
 * the index gateway): registered with the ServiceRegistry, joins its ring when started and
 * leaves it when stopped.
 */
export abstract class RingMemberService implements LifecycleService, OnModuleInit {
  abstract readonly serviceName: string;
  private lifecycler: Lifecycler | undefined;

  protected constructor(
    private readonly registry: ServiceRegistry,
    protected readonly rings: RingsService,
    private readonly ring: RingName,
    protected readonly logger: Logger,
  ) {}

  /** The gRPC port the member advertises (none: the ring's configured port). */
  protected advertisedPort(): number | undefined {
    return undefined;
  }

  /** Forget other members unhealthy for this long (none: never, the default). */
  protected autoForgetUnhealthyAfterMs(): number | undefined {
    return undefined;
  }

  onModuleInit(): void {
    this.registry.register(this);
  }

  async starting(): Promise<void> {
    this.lifecycler = memberLifecycler(
      this.rings,
      this.ring,
      this.advertisedPort(),
      this.logger,
      this.autoForgetUnhealthyAfterMs(),
    );
    await this.lifecycler.start();
  }

  async stopping(): Promise<void> {
    await this.lifecycler?.stop();
  }
}
