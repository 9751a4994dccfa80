// Tenant IDs from the X-Scope-OrgID header, validated by dskit's rules so that an ID is always
// safe to use as one storage path segment.

/** Request header carrying the tenant ID(s). */
export const ORG_ID_HEADER = 'X-Scope-OrgID';
/** Query-fairness sub-queue path header: ours and Loki's spelling. */
export const ACTOR_PATH_HEADER = 'X-Logsvc-Actor-Path';
export const LOKI_ACTOR_PATH_HEADER = 'X-Loki-Actor-Path';
/** Separator between tenants in X-Scope-OrgID and between segments of an actor path. */
export const TENANT_SEPARATOR = '|';
/** Tenant of every request when auth_enabled is false. */
export const SINGLE_TENANT_ID = 'fake';
export const MAX_TENANT_ID_LENGTH = 150;
/**
 * Suffix of the object store's in-flight temporary files, which listings skip. A tenant ID
 * ending in it would name a directory the store never lists, so such IDs are refused (a
 * deliberate difference from Loki, which has no such names).
 */
export const RESERVED_NAME_SUFFIX = '.logsvc-tmp';

export type TenantErrorKind = 'missing' | 'invalid' | 'too-many';

/** Why X-Scope-OrgID was refused; `kind` decides the HTTP status (missing → 401, else 400). */
export class TenantError extends Error {
  constructor(
    readonly kind: TenantErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'TenantError';
  }
}

function isAllowedChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) || // 0-9
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x61 && code <= 0x7a) || // a-z
    "!-_.*'()".includes(String.fromCharCode(code))
  );
}

/** Returns why `id` is not a valid tenant ID, or undefined if it is valid. */
export function tenantIdProblem(id: string): string | undefined {
  if (id === '') return 'tenant ID is empty';
  for (let i = 0; i < id.length; i++) {
    if (!isAllowedChar(id.charCodeAt(i))) {
      const ch = String.fromCodePoint(id.codePointAt(i) ?? 0);
      return `tenant ID '${id}' contains unsupported character '${ch}'`;
    }
  }
  if (id.length > MAX_TENANT_ID_LENGTH)
    return `tenant ID is too long: max ${MAX_TENANT_ID_LENGTH} characters`;
  if (id === '.' || id === '..') return "tenant ID is '.' or '..'";
  if (id.endsWith(RESERVED_NAME_SUFFIX)) {
    return `tenant ID '${id}' ends with '${RESERVED_NAME_SUFFIX}', which logsvc reserves for temporary files`;
  }
  return undefined;
}

export function isValidTenantId(id: string): boolean {
  return tenantIdProblem(id) === undefined;
}

/** The distinct IDs of a header, sorted, and whether an empty one was among them. */
function splitTenantIds(header: string | undefined): { ids: string[]; empty: boolean } {
  if (header === undefined || header === '') throw new TenantError('missing', 'no org id');
  const all = new Set(header.split(TENANT_SEPARATOR));
  // As dskit, an empty ID between separators (`a|b|`) is no error: it names a tenant without
  // data, so it is left out. A header of separators only names no tenant at all.
  const empty = all.delete('');
  const ids = [...all].sort();
  if (ids.length === 0) throw new TenantError('invalid', tenantIdProblem('') ?? '');
  for (const id of ids) {
    const problem = tenantIdProblem(id);
    if (problem) throw new TenantError('invalid', problem);
  }
  return { ids, empty };
}

/**
 * Parses an X-Scope-OrgID value into its tenant IDs, sorted and without duplicates
 * (`b|a|b` → `['a', 'b']`); empty IDs are left out (`a|b|` → `['a', 'b']`). Throws
 * TenantError when the header is absent, names no tenant, or an ID is invalid.
 */
export function parseTenantIds(header: string | undefined): string[] {
  return splitTenantIds(header).ids;
}

export interface TenancyOptions {
  /** Loki's `auth_enabled`: when false every request belongs to tenant `fake`. */
  authEnabled: boolean;
  /** Whether this endpoint accepts several tenants (queries with multi-tenant queries enabled). */
  allowMultiple: boolean;
}

/** The tenant(s) a request acts for, following `auth_enabled` and the endpoint's rules. */
export function resolveTenants(header: string | undefined, options: TenancyOptions): string[] {
  if (!options.authEnabled) return [SINGLE_TENANT_ID];
  const { ids, empty } = splitTenantIds(header);
  // An empty ID still counts here, as in dskit: `a|` is two org IDs to a one-tenant endpoint.
  if ((ids.length > 1 || empty) && !options.allowMultiple)
    throw new TenantError('too-many', 'multiple org IDs present');
  return ids;
}

/** Splits an actor-path header value into its sub-queue names (empty when absent). */
export function parseActorPath(header: string | undefined): string[] {
  if (header === undefined || header === '') return [];
  return header.split(TENANT_SEPARATOR);
}
