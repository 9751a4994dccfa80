import { applyDefaults, type SchemaIssue } from '../schema';
import { withPreset } from './presets';
import { parseSpec } from './parse';
import { specSchema } from './spec';
import type { LogServiceSpec } from './types.generated';

/**
 * The annotation that lets a guarded field change: a comma-separated list of the fields
 * (as the refusal names them, e.g. `spec.mode,spec.storage.s3.bucket`).
 */
export const ALLOW_CHANGES_ANNOTATION = 'logsvc.io/allow-changes';

/**
 * Fields whose change loses data or strands it (every object of the old mode is pruned, the
 * data stays in the old store or bucket), or cuts the pods apart while they roll (TLS switched on, off or to mutual):
 * refused unless the annotation names them.
 */
const GUARDED: readonly {
  readonly path: string;
  readonly applies: (spec: LogServiceSpec) => boolean;
  readonly value: (spec: LogServiceSpec) => unknown;
  readonly why: string;
}[] = [
  {
    path: 'spec.mode',
    applies: () => true,
    value: (s) => s.mode,
    why: "every workload of the old mode is deleted and the pods' volumes are left behind",
  },
  {
    path: 'spec.storage.type',
    applies: () => true,
    value: (s) => s.storage.type,
    why: 'the data written so far stays in the old object store',
  },
  {
    path: 'spec.storage.s3.bucket',
    applies: (s) => s.storage.type === 's3',
    value: (s) => s.storage.s3?.bucket,
    why: 'the data written so far stays in the old bucket',
  },
  {
    path: 'spec.tls',
    applies: (s) => s.mode !== 'SingleBinary',
    value: (s) => (s.tls === undefined ? undefined : s.tls.mutual ? 'mutual' : 'server-only'),
    why: 'while the pods roll, old and new ones cannot reach each other (or the managed etcd) over gRPC, so pushes and queries between them fail',
  },
];

/**
 * Fields the API server refuses to change later (a StatefulSet's volumeClaimTemplates are
 * immutable): refused up front, annotation or not.
 */
const IMMUTABLE: readonly {
  readonly path: string;
  readonly applies: (spec: LogServiceSpec) => boolean;
  readonly value: (spec: LogServiceSpec) => unknown;
}[] = [
  { path: 'spec.storage.size', applies: () => true, value: (s) => s.storage.size },
  {
    path: 'spec.storage.storageClassName',
    applies: () => true,
    value: (s) => s.storage.storageClassName ?? '',
  },
  {
    path: 'spec.ring.managed.size',
    applies: (s) => usesManagedEtcd(s),
    value: (s) => s.ring.managed.size,
  },
];

function usesManagedEtcd(spec: LogServiceSpec): boolean {
  return spec.mode !== 'SingleBinary' && spec.ring.store === 'managed';
}

/** The fields an `logsvc.io/allow-changes` value names (`mode` and `spec.mode` alike). */
export function allowedChanges(annotations: Readonly<Record<string, string>> | undefined) {
  const value = annotations?.[ALLOW_CHANGES_ANNOTATION] ?? '';
  return new Set(
    value
      .split(',')
      .map((f) => f.trim())
      .filter((f) => f !== '')
      .map((f) => (f.startsWith('spec.') ? f : `spec.${f}`)),
  );
}

const show = (v: unknown) => (v === undefined || v === '' ? '(unset)' : JSON.stringify(v));

/** What a change from `before` to `after` (both valid, defaulted specs) may not do. */
export function checkSpecChange(
  before: LogServiceSpec,
  after: LogServiceSpec,
  allowed: ReadonlySet<string>,
): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  for (const field of GUARDED) {
    if (!field.applies(before) || !field.applies(after)) continue;
    const [was, is] = [field.value(before), field.value(after)];
    if (was === is || allowed.has(field.path)) continue;
    issues.push({
      path: field.path,
      message: `changing it from ${show(was)} to ${show(is)} is refused: ${field.why}; to do it anyway, annotate the LogService with ${ALLOW_CHANGES_ANNOTATION}: ${field.path}`,
    });
  }
  for (const field of IMMUTABLE) {
    if (!field.applies(before) || !field.applies(after)) continue;
    const [was, is] = [field.value(before), field.value(after)];
    if (was === is) continue;
    issues.push({
      path: field.path,
      message: `is immutable (${show(was)} to ${show(is)}): the volume claims of a StatefulSet cannot change; resize the PersistentVolumeClaims themselves where the storage class allows expansion`,
    });
  }
  if (usesManagedEtcd(before) && usesManagedEtcd(after)) {
    const [was, is] = [before.ring.managed.replicas, after.ring.managed.replicas];
    if (is < was)
      issues.push({
        path: 'spec.ring.managed.replicas',
        message: `cannot shrink from ${was} to ${is}: the managed etcd grows (1 to 3 members, one at a time), it does not shrink`,
      });
  }
  return issues;
}

export type AdmissionVerdict =
  { readonly allowed: true } | { readonly allowed: false; readonly issues: readonly SchemaIssue[] };

/**
 * The validating webhook's decision on a LogService written with `spec` (and `annotations`),
 * replacing `oldSpec` on an update: the schema, the rules across fields, and the guarded and
 * immutable fields. An update that leaves the spec as it was is allowed (labels, annotations).
 */
export function admitLogService(
  spec: unknown,
  annotations: Readonly<Record<string, string>> | undefined,
  oldSpec?: unknown,
): AdmissionVerdict {
  if (oldSpec !== undefined && JSON.stringify(oldSpec) === JSON.stringify(spec))
    return { allowed: true };
  const parsed = parseSpec(spec);
  if (!parsed.ok) return { allowed: false, issues: parsed.issues };
  if (oldSpec === undefined) return { allowed: true };
  const before = applyDefaults(specSchema, withPreset(oldSpec)) as LogServiceSpec;
  const issues = checkSpecChange(before, parsed.spec, allowedChanges(annotations));
  return issues.length === 0 ? { allowed: true } : { allowed: false, issues };
}
