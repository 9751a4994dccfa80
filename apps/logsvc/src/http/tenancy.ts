import { ORG_ID_HEADER, TenantError, resolveTenants } from '@logsvc/api';
import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { Config } from '@logsvc/config';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { httpError } from './plain-error';

/** Tenancy settings of this server, attached to the Fastify instance at start-up. */
export interface TenancySettings {
  authEnabled: boolean;
  multiTenantQueriesEnabled: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    logsvcTenancy: TenancySettings;
  }
}

/** The tenancy settings of a config: `auth_enabled`, `querier.multi_tenant_queries_enabled`. */
export function tenancyOf(config: Config): TenancySettings {
  return {
    authEnabled: config.auth_enabled,
    multiTenantQueriesEnabled: config.querier.multi_tenant_queries_enabled,
  };
}

export function installTenancy(fastify: FastifyInstance, settings: TenancySettings): void {
  fastify.decorate('logsvcTenancy', settings);
}

/**
 * Resolves X-Scope-OrgID for a request. Missing with auth enabled → 401 `no org id`; invalid ID
 * or several IDs where only one is allowed → 400 with the reason.
 */
export function requestTenants(request: FastifyRequest, allowMultiple: boolean): string[] {
  const settings = request.server.logsvcTenancy;
  const header = request.headers[ORG_ID_HEADER.toLowerCase()];
  try {
    return resolveTenants(Array.isArray(header) ? header.join('|') : header, {
      authEnabled: settings.authEnabled,
      allowMultiple: allowMultiple && settings.multiTenantQueriesEnabled,
    });
  } catch (err) {
    if (err instanceof TenantError)
      throw httpError(err.kind === 'missing' ? 401 : 400, err.message);
    throw err;
  }
}

/** Handler parameter: the request's single tenant ID (push, tail, rules, deletes...). */
export const TenantId = createParamDecorator((_data: unknown, ctx: ExecutionContext): string => {
  return requestTenants(ctx.switchToHttp().getRequest<FastifyRequest>(), false)[0];
});

/**
 * Handler parameter: the request's tenant IDs. Several (`a|b`) only when
 * `querier.multi_tenant_queries_enabled` is set; for query endpoints.
 */
export const TenantIds = createParamDecorator((_data: unknown, ctx: ExecutionContext): string[] => {
  return requestTenants(ctx.switchToHttp().getRequest<FastifyRequest>(), true);
});
