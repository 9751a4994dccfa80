// Loki's `local` rule store layout: `<directory>/<tenant>/<namespace>`, each file a Prometheus
// rule file. Unlike Loki's, this store is writable (the API edits it).
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
import { KeyedMutex, type RuleStore } from './store';

/** Names that cannot be a file name: refused rather than encoded, so files keep their names. */
function checkName(what: string, name: string): void {
  if (
    name === '' ||
    name === '.' ||
    name === '..' ||
    /[/\\\0]/.test(name) ||
    name.startsWith('.')
  ) {
    throw new RuleGroupError(`invalid ${what} name: ${JSON.stringify(name)}`);
  }
}

export class LocalRuleStore implements RuleStore {
  private readonly mutex = new KeyedMutex();

  /** `files`: an object client over `ruler.storage.local.directory`. */
  constructor(private readonly files: ObjectClient) {}

  async listTenants(): Promise<string[]> {
    const { commonPrefixes } = await this.files.list('', { delimiter: '/' });
    return commonPrefixes.map((p) => p.slice(0, -1)).filter((t) => !t.startsWith('.'));
  }

  async listNamespaces(tenant: string): Promise<Map<string, RuleGroup[]>> {
    checkName('tenant', tenant);
    const { objects } = await this.files.list(`${tenant}/`, { delimiter: '/' });
    const out = new Map<string, RuleGroup[]>();
    for (const o of objects) {
      const ns = o.key.slice(tenant.length + 1);
      if (ns.startsWith('.')) continue;
      const groups = await this.read(tenant, ns);
      if (groups) out.set(ns, groups);
    }
    return out;
  }

  getNamespace(tenant: string, namespace: string): Promise<RuleGroup[] | undefined> {
    checkName('tenant', tenant);
    checkName('namespace', namespace);
    return this.read(tenant, namespace);
  }

  async getGroup(tenant: string, namespace: string, name: string): Promise<RuleGroup> {
    const groups = await this.getNamespace(tenant, namespace);
    const g = groups?.find((x) => x.name === name);
    if (!g) throw new RuleNotFoundError(ERR_GROUP_NOT_FOUND);
    return g;
  }

  setGroup(tenant: string, namespace: string, group: RuleGroup): Promise<void> {
    checkName('tenant', tenant);
    checkName('namespace', namespace);
    return this.mutex.run(`${tenant}/${namespace}`, async () => {
      const groups = (await this.read(tenant, namespace)) ?? [];
      const i = groups.findIndex((g) => g.name === group.name);
      if (i >= 0) groups[i] = group;
      else groups.push(group);
      await this.write(tenant, namespace, groups);
    });
  }

  deleteGroup(tenant: string, namespace: string, name: string): Promise<void> {
    checkName('tenant', tenant);
    checkName('namespace', namespace);
    return this.mutex.run(`${tenant}/${namespace}`, async () => {
      const groups = await this.read(tenant, namespace);
      const i = groups?.findIndex((g) => g.name === name) ?? -1;
      // As Loki's object stores (filesystem, S3), deleting a missing group succeeds.
      if (!groups || i < 0) return;
      groups.splice(i, 1);
      await this.write(tenant, namespace, groups);
    });
  }

  deleteNamespace(tenant: string, namespace: string): Promise<void> {
    checkName('tenant', tenant);
    checkName('namespace', namespace);
    return this.mutex.run(`${tenant}/${namespace}`, async () => {
      if (!(await this.read(tenant, namespace)))
        throw new RuleNotFoundError(ERR_NAMESPACE_NOT_FOUND);
      await this.files.delete(`${tenant}/${namespace}`);
    });
  }

  private async read(tenant: string, namespace: string): Promise<RuleGroup[] | undefined> {
    let body: Buffer;
    try {
      body = await this.files.get(`${tenant}/${namespace}`);
    } catch (err) {
      if (err instanceof ObjectNotFoundError) return undefined;
      throw err;
    }
    try {
      return parseRuleFile(body.toString('utf8'));
    } catch (err) {
      if (err instanceof RuleGroupError)
        throw new RuleGroupError(`${tenant}/${namespace}: ${err.message}`);
      throw err;
    }
  }

  private async write(tenant: string, namespace: string, groups: RuleGroup[]): Promise<void> {
    const key = `${tenant}/${namespace}`;
    if (groups.length === 0) await this.files.delete(key);
    else await this.files.put(key, Buffer.from(formatRuleFile(groups), 'utf8'));
  }
}
