// Injection tokens for values that are not classes.

/** The loaded `Config` (from @logsvc/config). */
export const CONFIG = Symbol('logsvc.config');
/** The per-tenant `Overrides` (from @logsvc/config). */
export const OVERRIDES = Symbol('logsvc.overrides');
/** The process-wide pino logger. */
export const LOGGER = Symbol('logsvc.logger');
