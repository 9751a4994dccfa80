// Rule groups on the object store, one object per group as Loki lays them out:
// `rules/<tenant>/<base64url(namespace)>/<base64url(group)>`. Each object holds the group as a
// Prometheus rule file, so a group is written without touching its neighbours.
import { ObjectNotFoundError, type ObjectClient } from '@logsvc/storage';
import {
  RuleGroupError,
  RuleNotFoundError,
  ERR_GROUP_NOT_FOUND,
  ERR_NAMESPACE_NOT_FOUND,
} from './errors';
import { formatRuleFile } from './format';
import type { RuleGroup } from './model';
import { parseRuleFile } from './parse';
import type { RuleStore } from './store';

const PREFIX = 'rules/';

function encode(s: string): string {
  return Buffer.from(s, 'utf8').toString('base64url');
}

function decode(s: string): string {
  return Buffer.from(s, 'base64url').toString('utf8');
}

function checkTenant(tenant: string): void {
  if (tenant === '' || tenant === '.' || tenant === '..' || /[/\\\0]/.test(tenant))
    throw new RuleGroupError(`invalid tenant name: ${JSON.stringify(tenant)}`);
}

export class ObjectRuleStore implements RuleStore {
  constructor(private readonly objects: ObjectClient) {}

  async listTenants(): Promise<string[]> {
    const { commonPrefixes } = await this.objects.list(PREFIX, { delimiter: '/' });
    return commonPrefixes.map((p) => p.slice(PREFIX.length, -1));
  }

  async listNamespaces(tenant: string): Promise<Map<string, RuleGroup[]>> {
    checkTenant(tenant);
    const { objects } = await this.objects.list(`${PREFIX}${tenant}/`);
    const byNamespace = new Map<string, RuleGroup[]>();
    for (const o of objects) {
      const [nsEnc] = o.key.slice(PREFIX.length + tenant.length + 1).split('/');
      const g = await this.readKey(o.key);
      if (!g) continue;
      const ns = decode(nsEnc);
      const list = byNamespace.get(ns) ?? [];
      list.push(g);
      byNamespace.set(ns, list);
    }
    return new Map([...byNamespace].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  async getNamespace(tenant: string, namespace: string): Promise<RuleGroup[] | undefined> {
    checkTenant(tenant);
    const { objects } = await this.objects.list(this.namespacePrefix(tenant, namespace));
    const groups: RuleGroup[] = [];
    for (const o of objects) {
      const g = await this.readKey(o.key);
      if (g) groups.push(g);
    }
    return groups.length > 0 ? groups : undefined;
  }

  async getGroup(tenant: string, namespace: string, name: string): Promise<RuleGroup> {
    checkTenant(tenant);
    const g = await this.readKey(this.groupKey(tenant, namespace, name));
    if (!g) throw new RuleNotFoundError(ERR_GROUP_NOT_FOUND);
    return g;
  }

  async setGroup(tenant: string, namespace: string, group: RuleGroup): Promise<void> {
    checkTenant(tenant);
    const key = this.groupKey(tenant, namespace, group.name);
    await this.objects.put(key, Buffer.from(formatRuleFile([group]), 'utf8'));
  }

  async deleteGroup(tenant: string, namespace: string, name: string): Promise<void> {
    checkTenant(tenant);
    const key = this.groupKey(tenant, namespace, name);
    // As Loki on filesystem and S3, whose deletes succeed for a missing object: 202.
    if (!(await this.readKey(key))) return;
    await this.objects.delete(key);
  }

  async deleteNamespace(tenant: string, namespace: string): Promise<void> {
    checkTenant(tenant);
    const { objects } = await this.objects.list(this.namespacePrefix(tenant, namespace));
    if (objects.length === 0) throw new RuleNotFoundError(ERR_NAMESPACE_NOT_FOUND);
    for (const o of objects) await this.objects.delete(o.key);
  }

  private namespacePrefix(tenant: string, namespace: string): string {
    return `${PREFIX}${tenant}/${encode(namespace)}/`;
  }

  private groupKey(tenant: string, namespace: string, group: string): string {
    return this.namespacePrefix(tenant, namespace) + encode(group);
  }

  private async readKey(key: string): Promise<RuleGroup | undefined> {
    let body: Buffer;
    try {
      body = await this.objects.get(key);
    } catch (err) {
      if (err instanceof ObjectNotFoundError) return undefined;
      throw err;
    }
    return parseRuleFile(body.toString('utf8'))[0];
  }
}
