// The one place defaults live: libraries that need a default (limits, ingester settings, chunk
// sizes) take it from here instead of keeping their own copy.
import type { TenantLimits } from './sections/limits';
import { parseConfig } from './parse';
import type { Config } from './schema';

type DeepReadonly<T> = T extends (infer E)[]
  ? readonly DeepReadonly<E>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

function deepFreeze<T>(value: T): DeepReadonly<T> {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value as DeepReadonly<T>;
}

/** Every setting at its default, as a config file without keys (and no flags) produces it. */
export const DEFAULT_CONFIG: DeepReadonly<Config> = deepFreeze(parseConfig({}));

/** Loki's default per-tenant limits (`limits_config` with no overrides). */
export const DEFAULT_LIMITS: DeepReadonly<TenantLimits> = DEFAULT_CONFIG.limits_config;
