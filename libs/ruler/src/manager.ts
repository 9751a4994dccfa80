// The groups this ruler evaluates, kept in step with the rule store: new groups start, changed
// groups restart with their alerts carried over, removed groups stop.
import type { Clock } from './clock';
import { Group, type GroupDeps } from './group';
import { fnv32a } from './hash';
import type { RuleGroup } from './model';
import { GroupScheduler } from './scheduler';

export interface OwnedGroup {
  readonly tenant: string;
  readonly namespace: string;
  readonly group: RuleGroup;
}

export interface ManagerOptions extends GroupDeps {
  readonly clock: Clock;
  /** `ruler.evaluation_interval`: the interval of groups that set none. */
  readonly defaultIntervalMs: number;
}

interface Entry {
  readonly definition: string;
  readonly scheduler: GroupScheduler;
}

function groupId(tenant: string, namespace: string, name: string): string {
  return JSON.stringify([tenant, namespace, name]);
}

export class RuleManager {
  private readonly entries = new Map<string, Entry>();
  /**
   * Tenants with groups here. Loki runs a rules manager per tenant, made when the tenant's
   * first groups arrive and dropped when its last go: only the groups it loads first have their
   * `for` state restored.
   */
  private readonly tenants = new Set<string>();

  constructor(private readonly options: ManagerOptions) {}

  /** Makes the running groups exactly `groups`. */
  async sync(groups: readonly OwnedGroup[]): Promise<void> {
    const known = new Set(this.tenants);
    const wanted = new Set<string>();
    for (const { tenant, namespace, group } of groups) {
      const id = groupId(tenant, namespace, group.name);
      wanted.add(id);
      const definition = JSON.stringify(group);
      const old = this.entries.get(id);
      if (old && old.definition === definition) continue;
      const interval = group.intervalMs || this.options.defaultIntervalMs;
      const fresh = new Group(tenant, namespace, group, interval, this.options);
      fresh.restoreForState = !known.has(tenant);
      if (old) {
        await old.scheduler.stop();
        fresh.copyState(old.scheduler.group);
      }
      const scheduler = new GroupScheduler(
        fresh,
        this.options.clock,
        fnv32a(id) % interval,
        this.options.metrics,
      );
      this.entries.set(id, { definition, scheduler });
      scheduler.start();
    }
    for (const [id, entry] of this.entries) {
      if (wanted.has(id)) continue;
      this.entries.delete(id);
      await entry.scheduler.stop();
    }
    this.tenants.clear();
    for (const { tenant } of groups) this.tenants.add(tenant);
  }

  /** A tenant's running groups, by namespace then name. */
  groups(tenant: string): Group[] {
    return [...this.entries.values()]
      .map((e) => e.scheduler.group)
      .filter((g) => g.tenant === tenant)
      .sort((a, b) =>
        a.namespace !== b.namespace
          ? a.namespace < b.namespace
            ? -1
            : 1
          : a.group.name < b.group.name
            ? -1
            : a.group.name > b.group.name
              ? 1
              : 0,
      );
  }

  async stop(): Promise<void> {
    await this.sync([]);
  }
}
