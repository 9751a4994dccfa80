import { readFile } from 'node:fs/promises';
import { ConfigError } from './errors';
import { formatIssues } from './parse';
import { parseYamlDocument } from './load';
import { limitsSection, type TenantLimits } from './sections/limits';
import { unsupportedSettings } from './unsupported';

/** Per-tenant `limits_config` overrides, as read from a runtime config file. */
export type TenantOverrides = ReadonlyMap<string, Partial<TenantLimits>>;

/**
 * Parses a runtime config document: `overrides: { <tenant>: { <limits_config keys> } }`.
 * Only the keys a tenant sets are kept; the rest come from `limits_config`.
 */
const LIMIT_DEFAULTS = limitsSection.parse(undefined);

export function parseRuntimeConfig(text: string, source: string): TenantOverrides {
  const doc = parseYamlDocument(text, source);
  const result = new Map<string, Partial<TenantLimits>>();
  for (const key of Object.keys(doc)) {
    if (key !== 'overrides')
      throw new ConfigError(`runtime config error: ${source}: ${key}: unknown key`);
  }
  const overrides = doc.overrides ?? {};
  if (overrides === null || typeof overrides !== 'object' || Array.isArray(overrides)) {
    throw new ConfigError(
      `runtime config error: ${source}: overrides: expected a map of tenant IDs`,
    );
  }
  for (const [tenant, raw] of Object.entries(overrides)) {
    const input = raw ?? {};
    const parsed = limitsSection.safeParse(input, { reportInput: true });
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({
        ...i,
        path: ['overrides', tenant, ...i.path],
      }));
      throw new ConfigError(formatIssues(issues, `runtime config error: ${source}`));
    }
    const unsupported = unsupportedSettings(
      parsed.data,
      LIMIT_DEFAULTS,
      `runtime config error: ${source}`,
      'limits_config',
      (key) => `overrides.${tenant}.${key.slice('limits_config.'.length)}`,
    );
    if (unsupported.length > 0) throw new ConfigError(unsupported.join('\n'));
    const picked: Record<string, unknown> = {};
    for (const key of Object.keys(input as object)) {
      picked[key] = (parsed.data as Record<string, unknown>)[key];
    }
    result.set(tenant, picked as Partial<TenantLimits>);
  }
  return result;
}

export interface OverridesOptions {
  /** Runtime config file; empty means no per-tenant overrides. */
  file: string;
  /** How often the file is re-read, in milliseconds. */
  periodMs: number;
  /** Called when a reload fails; the previous overrides stay in force. */
  onReloadError?: (err: Error) => void;
  readFile?: (path: string) => Promise<string>;
}

/** The limits of each tenant: `limits_config` plus that tenant's runtime overrides. */
export class Overrides {
  private overrides: TenantOverrides = new Map();
  private readonly cache = new Map<string, TenantLimits>();
  private timer: NodeJS.Timeout | undefined;
  private reloading = false;

  constructor(
    private readonly defaults: TenantLimits,
    private readonly options: OverridesOptions,
  ) {}

  /**
   * Fixed limits of some tenants, never reloaded: a worker thread's copy of what the main
   * thread's Overrides resolved for a query. Other tenants get `defaults`.
   */
  static fixed(limits: ReadonlyMap<string, TenantLimits>, defaults: TenantLimits): Overrides {
    const overrides = new Overrides(defaults, { file: '', periodMs: 0 });
    overrides.overrides = limits;
    return overrides;
  }

  /** Reads the runtime config file once; throws ConfigError if it is unreadable or invalid. */
  async load(): Promise<void> {
    if (this.options.file === '') return;
    const read = this.options.readFile ?? ((p: string) => readFile(p, 'utf8'));
    let text: string;
    try {
      text = await read(this.options.file);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new ConfigError(`runtime config error: cannot read ${this.options.file}: ${why}`);
    }
    this.overrides = parseRuntimeConfig(text, this.options.file);
    this.cache.clear();
  }

  /** Loads the file, then re-reads it every period until stop(). */
  async start(): Promise<void> {
    await this.load();
    if (this.options.file === '' || this.timer) return;
    this.timer = setInterval(() => void this.reload(), this.options.periodMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async reload(): Promise<void> {
    if (this.reloading) return;
    this.reloading = true;
    try {
      await this.load();
    } catch (err) {
      this.options.onReloadError?.(err instanceof Error ? err : new Error(String(err)));
    } finally {
      this.reloading = false;
    }
  }

  /** Tenants that have overrides. */
  tenants(): string[] {
    return [...this.overrides.keys()].sort();
  }

  /** The effective limits of `tenantId`. The returned object must not be modified. */
  forTenant(tenantId: string): TenantLimits {
    let limits = this.cache.get(tenantId);
    if (!limits) {
      const own = this.overrides.get(tenantId);
      limits = own ? { ...this.defaults, ...own } : this.defaults;
      this.cache.set(tenantId, limits);
    }
    return limits;
  }
}
