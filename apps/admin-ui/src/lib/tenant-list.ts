// A multi-tenant query's tenants, `a|b`, as Loki's querier reads X-Scope-OrgID.
import { tenantIdProblem } from '@logsvc/api/browser';

/** Why `a|b` is not a list of tenant IDs, or undefined when it is (or is empty). */
export function tenantListProblem(list: string): string | undefined {
  if (list.trim() === '') return undefined;
  for (const id of list.trim().split('|')) {
    const problem = tenantIdProblem(id);
    if (problem) return problem;
  }
  return undefined;
}
