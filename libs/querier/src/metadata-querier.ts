import { type Labels, type Matcher, labelsToString, sortLabels } from '@logsvc/api';
import { TENANT_ID_LABEL, selectTenants } from '@logsvc/logql';
import type { IndexReader, IndexStats } from '@logsvc/storage';
import type { IngesterClient, StreamVolume } from '@logsvc/ingester';
import type { ReadWindow } from './read-window';

/** The label that names a tenant in multi-tenant answers. */
export const TENANT_LABEL = TENANT_ID_LABEL;

/** Matchers on `__tenant_id__` choose tenants in multi-tenant requests; the rest select streams. */
function splitTenantMatchers(
  tenants: readonly string[],
  matchers: readonly Matcher[],
): { tenants: string[]; matchers: Matcher[] } {
  // With one tenant, `__tenant_id__` is an ordinary label of the selector.
  if (tenants.length < 2) return { tenants: [...tenants], matchers: [...matchers] };
  return selectTenants(tenants, matchers);
}

/**
 * Label names, label values, series, index stats and volumes: the ingesters' answer for the
 * recent part of the range merged with the store's for the whole range.
 */
export class MetadataQuerier {
  constructor(
    private readonly store: IndexReader,
    private readonly ingesters: IngesterClient,
    private readonly window: ReadWindow,
  ) {}

  async labelNames(
    tenants: readonly string[],
    fromNs: bigint,
    throughNs: bigint,
    matchers: readonly Matcher[],
  ): Promise<string[]> {
    const split = splitTenantMatchers(tenants, matchers);
    const names = new Set<string>();
    for (const tenant of split.tenants) {
      const ing = this.window.ingesterRange(fromNs, throughNs);
      if (ing) {
        const q = { ...ing, matchers: split.matchers };
        for (const n of await this.ingesters.labelNames(tenant, q)) names.add(n);
      }
      const st = this.window.storeRange(fromNs, throughNs);
      if (st) {
        for (const n of await this.store.labelNames(
          tenant,
          st.fromNs,
          st.throughNs,
          split.matchers,
        ))
          names.add(n);
      }
    }
    if (tenants.length > 1 && split.tenants.length > 0) names.add(TENANT_LABEL);
    return [...names].sort();
  }

  async labelValues(
    tenants: readonly string[],
    name: string,
    fromNs: bigint,
    throughNs: bigint,
    matchers: readonly Matcher[],
  ): Promise<string[]> {
    const split = splitTenantMatchers(tenants, matchers);
    if (tenants.length > 1 && name === TENANT_LABEL) return [...split.tenants].sort();
    const values = new Set<string>();
    for (const tenant of split.tenants) {
      const ing = this.window.ingesterRange(fromNs, throughNs);
      if (ing) {
        const q = { ...ing, matchers: split.matchers };
        for (const v of await this.ingesters.labelValues(tenant, name, q)) values.add(v);
      }
      const st = this.window.storeRange(fromNs, throughNs);
      if (st) {
        const found = await this.store.labelValues(
          tenant,
          name,
          st.fromNs,
          st.throughNs,
          split.matchers,
        );
        for (const v of found) values.add(v);
      }
    }
    return [...values].sort();
  }

  /**
   * Distinct label sets matching any group; with several tenants each carries `__tenant_id__`
   * (its own stored one, when it has one).
   */
  async series(
    tenants: readonly string[],
    groups: readonly (readonly Matcher[])[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<Labels[]> {
    const out = new Map<string, Labels>();
    const multi = tenants.length > 1;
    for (const tenant of tenants) {
      const own: Matcher[][] = [];
      for (const g of groups) {
        const split = splitTenantMatchers(tenants, g);
        if (split.tenants.includes(tenant)) own.push(split.matchers);
      }
      if (own.length === 0) continue;
      const found: Labels[] = [];
      const ing = this.window.ingesterRange(fromNs, throughNs);
      if (ing) found.push(...(await this.ingesters.series(tenant, own, ing.fromNs, ing.throughNs)));
      const st = this.window.storeRange(fromNs, throughNs);
      if (st) found.push(...(await this.store.series(tenant, own, st.fromNs, st.throughNs)));
      for (const labels of found) {
        // As Loki's multi-tenant querier: a series that has the label already keeps its value.
        const withTenant =
          multi && !labels.some((p) => p.name === TENANT_LABEL)
            ? sortLabels([...labels, { name: TENANT_LABEL, value: tenant }])
            : labels;
        out.set(labelsToString(withTenant), withTenant);
      }
    }
    return [...out.keys()].sort().map((k) => out.get(k)!);
  }

  /** Index stats of the store (ingester data is not included, as the spec says). */
  async stats(
    tenants: readonly string[],
    matchers: readonly Matcher[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<IndexStats> {
    const split = splitTenantMatchers(tenants, matchers);
    const total: IndexStats = { streams: 0, chunks: 0, entries: 0, bytes: 0 };
    const st = this.window.storeRange(fromNs, throughNs);
    if (!st) return total;
    for (const tenant of split.tenants) {
      const s = await this.store.stats(tenant, split.matchers, st.fromNs, st.throughNs);
      total.streams += s.streams;
      total.chunks += s.chunks;
      total.entries += s.entries;
      total.bytes += s.bytes;
    }
    return total;
  }

  /**
   * Uncompressed bytes per stream over [fromNs, throughNs]: the store's chunk sizes plus the
   * bytes of the matching entries in memory.
   */
  async streamVolumes(
    tenants: readonly string[],
    matchers: readonly Matcher[],
    fromNs: bigint,
    throughNs: bigint,
  ): Promise<StreamVolume[]> {
    const split = splitTenantMatchers(tenants, matchers);
    const out: StreamVolume[] = [];
    for (const tenant of split.tenants) {
      const st = this.window.storeRange(fromNs, throughNs);
      if (st) {
        for (const v of await this.store.volume(tenant, split.matchers, st.fromNs, st.throughNs))
          out.push({ labels: v.labels, bytes: v.bytes });
      }
      const ing = this.window.ingesterRange(fromNs, throughNs);
      if (ing) {
        out.push(
          ...(await this.ingesters.volume(tenant, split.matchers, ing.fromNs, ing.throughNs)),
        );
      }
    }
    return out;
  }
}
