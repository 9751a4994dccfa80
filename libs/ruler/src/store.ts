import type { RuleGroup } from './model';

/**
 * Where rule groups live, per tenant and namespace. Every write is of a group already
 * validated; reads return groups in their stored order.
 */
export interface RuleStore {
  /** Tenants that have at least one namespace. */
  listTenants(): Promise<string[]>;
  /** Every namespace of a tenant with its groups, namespaces sorted by name. */
  listNamespaces(tenant: string): Promise<Map<string, RuleGroup[]>>;
  /** The groups of one namespace, or undefined when it does not exist. */
  getNamespace(tenant: string, namespace: string): Promise<RuleGroup[] | undefined>;
  /** Throws RuleNotFoundError (`group does not exist`). */
  getGroup(tenant: string, namespace: string, group: string): Promise<RuleGroup>;
  /** Creates the group, or replaces the group of the same name in place. */
  setGroup(tenant: string, namespace: string, group: RuleGroup): Promise<void>;
  /** Deletes the group; a missing group is no error (Loki's object stores answer 202). */
  deleteGroup(tenant: string, namespace: string, group: string): Promise<void>;
  /** Throws RuleNotFoundError (`group namespace does not exist`). */
  deleteNamespace(tenant: string, namespace: string): Promise<void>;
}

/** Serialises the read-modify-write cycles on one key within this process. */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}
