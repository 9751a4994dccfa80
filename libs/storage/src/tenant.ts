import { tenantIdProblem } from '@logsvc/api';
import { InvalidTenantError } from './errors';

/**
 * Throws InvalidTenantError unless `tenant` is a valid tenant ID (the shared rule of
 * @logsvc/api: `[a-zA-Z0-9!\-_.*'()]`, at most 150 characters, not '.' or '..'). Such an ID
 * has no separator and is always exactly one key segment. Called before any key is built.
 */
export function assertSafeTenant(tenant: string): void {
  const problem =
    typeof tenant === 'string' ? tenantIdProblem(tenant) : 'tenant ID is not a string';
  if (problem !== undefined) throw new InvalidTenantError(problem);
}

export function isSafeTenant(tenant: string): boolean {
  return typeof tenant === 'string' && tenantIdProblem(tenant) === undefined;
}
