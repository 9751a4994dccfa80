// The rules API of Loki's ruler (pkg/ruler/base/api.go): list, get, create, delete, with
// Loki's status codes and texts. Answers are YAML as Loki writes them.
import { ERR_NO_RULE_GROUPS, RuleGroupError, RuleNotFoundError } from './errors';
import { formatNamespaces, formatRuleGroup } from './format';
import type { RuleGroup } from './model';
import { parseRuleGroup } from './parse';
import type { RuleStore } from './store';
import { validateGroups } from './validate';

export interface RuleLimits {
  /** `ruler_max_rules_per_rule_group`; 0 = no limit. */
  readonly maxRulesPerRuleGroup: number;
  /** `ruler_max_rule_groups_per_tenant`; 0 = no limit. */
  readonly maxRuleGroupsPerTenant: number;
}

export class RulesApi {
  constructor(
    private readonly store: RuleStore,
    private readonly limits: (tenant: string) => RuleLimits,
  ) {}

  /** `GET /rules` and `GET /rules/{namespace}`: 404 `no rule groups found` when empty. */
  async list(tenant: string, namespace?: string): Promise<string> {
    let namespaces: Map<string, RuleGroup[]>;
    if (namespace === undefined) namespaces = await this.store.listNamespaces(tenant);
    else {
      const groups = await this.store.getNamespace(tenant, namespace);
      namespaces = new Map(groups ? [[namespace, groups]] : []);
    }
    if (namespaces.size === 0) throw new RuleNotFoundError(ERR_NO_RULE_GROUPS);
    return formatNamespaces(namespaces);
  }

  async getGroup(tenant: string, namespace: string, group: string): Promise<string> {
    return formatRuleGroup(await this.store.getGroup(tenant, namespace, group));
  }

  /** `POST /rules/{namespace}`: decodes, validates, checks the limits, stores. */
  async setGroup(tenant: string, namespace: string, body: string): Promise<void> {
    const group = parseRuleGroup(body);
    const problems = validateGroups([group]);
    if (problems.length > 0) throw new RuleGroupError(problems.join(', '));
    const limits = this.limits(tenant);
    if (limits.maxRulesPerRuleGroup > 0 && group.rules.length > limits.maxRulesPerRuleGroup) {
      throw new RuleGroupError(
        `per-user rules per rule group limit (limit: ${limits.maxRulesPerRuleGroup} actual: ${group.rules.length}) exceeded`,
      );
    }
    if (limits.maxRuleGroupsPerTenant > 0) {
      let count = 0;
      for (const groups of (await this.store.listNamespaces(tenant)).values())
        count += groups.length;
      if (count + 1 > limits.maxRuleGroupsPerTenant) {
        throw new RuleGroupError(
          `per-user rule groups limit (limit: ${limits.maxRuleGroupsPerTenant} actual: ${count + 1}) exceeded`,
        );
      }
    }
    await this.store.setGroup(tenant, namespace, group);
  }

  deleteGroup(tenant: string, namespace: string, group: string): Promise<void> {
    return this.store.deleteGroup(tenant, namespace, group);
  }

  deleteNamespace(tenant: string, namespace: string): Promise<void> {
    return this.store.deleteNamespace(tenant, namespace);
  }
}

/** Loki's body of a 202: `{"status":"success","data":null,"errorType":"","error":""}`. */
export const ACCEPTED_BODY = '{"status":"success","data":null,"errorType":"","error":""}';
