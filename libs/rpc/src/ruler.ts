// `ruler.Ruler/Rules` (services.ts): the groups one ruler evaluates, for the ruler that gathers
// a cluster's listing. Messages are JSON.
import type { UntypedServiceImplementation } from '@grpc/grpc-js';
import type { RuleGroupJson } from '@logsvc/api';
import { decoded } from './client/decoded';
import { RpcChannel, type RpcClientOptions } from './client/rpc-channel';
import { decodeRequest, unaryHandler, type RpcLogger } from './server/handler';
import { RULER_SERVICE } from './services';

/** The filters of `/prometheus/api/v1/rules`, passed on to every ruler. */
export interface RulesCallRequest {
  readonly type?: 'alert' | 'record';
  readonly files: readonly string[];
  readonly groups: readonly string[];
  readonly names: readonly string[];
}

/** What a ruler answers about itself. */
export interface RulerRulesSource {
  rules(tenant: string, request: RulesCallRequest): Promise<RuleGroupJson[]>;
}

function strings(v: unknown): string[] {
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) throw new Error('not strings');
  return v as string[];
}

function decodeRulesRequest(bytes: Buffer): RulesCallRequest {
  const raw = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  const type = raw.type;
  if (type !== undefined && type !== 'alert' && type !== 'record') throw new Error('bad type');
  return {
    ...(type === undefined ? {} : { type }),
    files: strings(raw.files),
    groups: strings(raw.groups),
    names: strings(raw.names),
  };
}

function decodeGroups(bytes: Buffer): RuleGroupJson[] {
  const groups = JSON.parse(bytes.toString('utf8')) as unknown;
  if (!Array.isArray(groups)) throw new Error('not a list of rule groups');
  return groups as RuleGroupJson[];
}

/** `ruler.Ruler` over this process's ruler. */
export function rulerImplementation(
  source: RulerRulesSource,
  logger: RpcLogger,
): UntypedServiceImplementation {
  return {
    Rules: unaryHandler(RULER_SERVICE.Rules.path, logger, async (tenant, request) => {
      const req = decodeRequest(RULER_SERVICE.Rules.path, () => decodeRulesRequest(request));
      return Buffer.from(JSON.stringify(await source.rules(tenant, req)));
    }),
  };
}

/** One remote ruler, reached over gRPC. */
export class GrpcRulerClient implements RulerRulesSource {
  private readonly channel: RpcChannel;

  constructor(
    readonly address: string,
    options: RpcClientOptions = {},
  ) {
    this.channel = new RpcChannel(address, RULER_SERVICE, 'Ruler', options);
  }

  async rules(tenant: string, request: RulesCallRequest): Promise<RuleGroupJson[]> {
    const response = await this.channel.unary(
      RULER_SERVICE.Rules,
      tenant,
      Buffer.from(JSON.stringify(request)),
    );
    return decoded('rule groups', () => decodeGroups(response));
  }

  close(): void {
    this.channel.close();
  }
}
