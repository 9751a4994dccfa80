import { readFile } from 'node:fs/promises';
import { ConfigError } from './errors';
import { formatIssues } from './parse';
import { parseYamlDocument } from './load';
import { limitsSection, type TenantLimits } from './sections/limits';
import { ruleFor } from './key-classes';
import { type KeyWarning, atLokiDefault } from './key-walk';
import { LOKI_KEYS, isReferenceBlock } from './loki-reference';
import { refusal } from './refusal';
import { SCHEMA_TREE } from './schema-tree';
import { unsupportedSettings } from './unsupported';

/** The `overrides` entry whose keys apply to every tenant, under each tenant's own. */
export const EVERY_TENANT = '*';

/** Per-tenant `limits_config` overrides, as read from a runtime config file. */
export type TenantOverrides = ReadonlyMap<string, Partial<TenantLimits>>;

/**
 * Parses a runtime config document: `overrides: { <tenant>: { <limits_config keys> } }`.
 * Only the keys a tenant sets are kept; the rest come from `limits_config`.
 */
const LIMIT_DEFAULTS = limitsSection.parse(undefined);

/**
 * Takes the keys of a tenant's overrides that `limits_config` has in Loki but not in logsvc out
 * of `input` (in place): warn-class ones are reported to `onWarning`, refused ones (unless at
 * Loki's default) returned as problems. Unknown keys stay, for the schema to name.
 */
function sortLokiLimits(
  input: Record<string, unknown>,
  tenant: string,
  source: string,
  onWarning: (warning: KeyWarning) => void,
): string[] {
  const problems: string[] = [];
  const limits = SCHEMA_TREE.kind === 'map' ? SCHEMA_TREE.children.get('limits_config') : undefined;
  const own = limits?.kind === 'map' ? limits.children : new Map();
  for (const key of Object.keys(input)) {
    if (own.has(key)) continue;
    const path = `limits_config.${key}`;
    const known = LOKI_KEYS.get(path);
    if (known === undefined && !isReferenceBlock(path)) continue;
    const shown = `overrides.${tenant}.${key}`;
    const rule = ruleFor(path);
    if (rule?.class === 'warn') onWarning({ key: shown, reason: rule.reason });
    else if (known === undefined || !atLokiDefault(input[key], known.default)) {
      problems.push(
        `runtime config error: ${source}: ${shown}: ${refusal(rule?.reason, rule?.instead)}`,
      );
    }
    delete input[key];
  }
  return problems;
}

export function parseRuntimeConfig(
  text: string,
  source: string,
  onWarning: (warning: KeyWarning) => void = () => {},
): TenantOverrides {
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
    if (input !== null && typeof input === 'object' && !Array.isArray(input)) {
      const refused = sortLokiLimits(input as Record<string, unknown>, tenant, source, onWarning);
      if (refused.length > 0) throw new ConfigError(refused.join('\n'));
    }
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
  /** Called for each Loki key of a tenant's overrides that has no effect in logsvc. */
  onWarning?: (warning: KeyWarning) => void;
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
    this.overrides = parseRuntimeConfig(text, this.options.file, this.options.onWarning);
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

  /**
   * The effective limits of `tenantId`: `limits_config`, then the keys of the `*` entry (every
   * tenant, as Tempo's wildcard, but merged key by key), then the tenant's own keys. The returned
   * object must not be modified.
   */
  forTenant(tenantId: string): TenantLimits {
    let limits = this.cache.get(tenantId);
    if (!limits) {
      const every = this.overrides.get(EVERY_TENANT);
      const own = this.overrides.get(tenantId);
      limits = own || every ? { ...this.defaults, ...every, ...own } : this.defaults;
      this.cache.set(tenantId, limits);
    }
    return limits;
  }
}
