import { applyDefaults, validateNode, type SchemaIssue } from '../schema';
import { withPreset } from './presets';
import { checkSpecRules } from './rules';
import { specSchema } from './spec';
import type { LogServiceSpec } from './types.generated';

export type ParsedSpec =
  | { readonly ok: true; readonly spec: LogServiceSpec }
  | { readonly ok: false; readonly issues: readonly SchemaIssue[] };

/**
 * Validates a LogService's `spec` as written, fills in its size preset (under what is written)
 * and the defaults, and checks the rules.
 */
export function parseSpec(raw: unknown): ParsedSpec {
  const issues = validateNode(specSchema, raw, 'spec');
  if (issues.length > 0) return { ok: false, issues };
  const spec = applyDefaults(specSchema, withPreset(raw)) as LogServiceSpec;
  const broken = checkSpecRules(spec);
  return broken.length > 0 ? { ok: false, issues: broken } : { ok: true, spec };
}

/** Issues as one line each: `spec.storage.s3: is required with storage.type s3`. */
export function formatIssues(issues: readonly SchemaIssue[]): string {
  return issues.map((i) => `${i.path}: ${i.message}`).join('; ');
}
