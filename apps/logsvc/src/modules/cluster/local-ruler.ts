import type { RuleGroupJson } from '@logsvc/api';
import { LogsvcError } from '@logsvc/errors';
import type { RulerRulesSource, RulesCallRequest } from '@logsvc/rpc';

/**
 * This process's ruler, once its component has started (`attach`): what the gRPC server
 * answers other rulers with. Before that, or in a process without one, calls fail as
 * `unavailable`.
 */
export class LocalRuler implements RulerRulesSource {
  private source: RulerRulesSource | undefined;

  attach(source: RulerRulesSource | undefined): void {
    this.source = source;
  }

  rules(tenant: string, request: RulesCallRequest): Promise<RuleGroupJson[]> {
    if (!this.source) throw new LogsvcError('unavailable', 'ruler not running');
    return this.source.rules(tenant, request);
  }
}
