import { TenantError, resolveTenants } from '@logsvc/api';
import { LogsvcError } from '@logsvc/errors';
import { type QueryJobAnswer, errorAnswer } from '@logsvc/query-codec';
import type { IncomingHttpHeaders } from 'node:http';

/** `auth_enabled` and `querier.multi_tenant_queries_enabled`. */
export interface EndpointTenancy {
  readonly authEnabled: boolean;
  readonly multiTenantQueriesEnabled: boolean;
}

/** Hears of a failure the server should log: a 5xx LogsvcError (`expected`) or anything else. */
export type FailureListener = (err: unknown, url: string, expected: boolean) => void;

/** A header's value as one string (lower-case names, as Node's). */
export function headerText(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(',') : v;
}

/**
 * The request's tenants from `X-Scope-OrgID`, or the refusal Loki writes (`http.Error`): 401
 * `no org id` without one, else 400 with the reason.
 */
export function tenantsOrRefusal(
  headers: IncomingHttpHeaders,
  tenancy: EndpointTenancy,
  allowMultiple: boolean,
): string[] | QueryJobAnswer {
  const header = headers['x-scope-orgid'];
  try {
    return resolveTenants(Array.isArray(header) ? header.join('|') : header, {
      authEnabled: tenancy.authEnabled,
      allowMultiple: allowMultiple && tenancy.multiTenantQueriesEnabled,
    });
  } catch (err) {
    if (err instanceof TenantError) {
      return errorAnswer(err.kind === 'missing' ? 401 : 400, `${err.message}\n`);
    }
    throw err;
  }
}

/**
 * An error as the routes write it: a LogsvcError's status and text (`newline` after it), else
 * 500 with `unexpected`; the listener hears of 5xx and unexpected ones.
 */
export function failureAnswer(
  err: unknown,
  url: string,
  newline: string,
  unexpected: string,
  onFailure: FailureListener | undefined,
): QueryJobAnswer {
  if (err instanceof LogsvcError) {
    if (err.httpStatus >= 500) onFailure?.(err, url, true);
    return errorAnswer(err.httpStatus, err.message + newline);
  }
  onFailure?.(err, url, false);
  return errorAnswer(500, unexpected);
}
