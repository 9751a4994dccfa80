import type { SchemaIssue } from '../schema';
import type { LogServiceSpec } from './types.generated';

/**
 * Rules across fields that the CRD's schema cannot express (apiextensions in Kubernetes 1.20 has
 * no CEL). The operator reports them in status (Degraded, reason InvalidSpec) and creates
 * nothing for a spec that breaks one.
 */
export function checkSpecRules(spec: LogServiceSpec): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const bad = (path: string, message: string) => issues.push({ path: `spec.${path}`, message });
  const multiPod = spec.mode !== 'SingleBinary';
  const c = spec.components;

  // The version is the pods' `app.kubernetes.io/version` label: it must be a label value.
  if (!isLabelValue(spec.version))
    bad(
      'version',
      `${JSON.stringify(spec.version)} is not a label value (at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit)`,
    );

  if (spec.size !== undefined && spec.mode !== 'Microservices')
    bad('size', "presets size the components of mode Microservices (as LokiStack's)");
  if (spec.storage.type === 's3' && spec.storage.s3 === undefined)
    bad('storage.s3', 'is required with storage.type s3');
  if (multiPod && spec.storage.type === 'filesystem' && spec.storage.sharedClaimName === undefined)
    bad(
      'storage.sharedClaimName',
      `is required with storage.type filesystem in mode ${spec.mode}: every pod must reach the same object store (or use s3)`,
    );
  if (multiPod && spec.ring.store === 'etcd' && (spec.ring.etcdEndpoints ?? []).length === 0)
    bad('ring.etcdEndpoints', 'needs at least one endpoint with ring.store etcd');
  if (spec.ring.managed.replicas === 2)
    bad('ring.managed.replicas', 'must be 1 or 3 (an etcd of 2 members has no fault tolerance)');
  if ((spec.zones ?? []).length > 0 && spec.mode !== 'Microservices')
    bad('zones', 'zone-aware ingesters need mode Microservices');
  if (spec.retention.enabled && !spec.compactor.enabled)
    bad('retention.enabled', 'retention runs in the compactor: set compactor.enabled');
  const retentionSet =
    spec.limits.global?.retentionPeriod !== undefined ||
    Object.values(spec.limits.tenants ?? {}).some((t) => t.retentionPeriod !== undefined);
  if (retentionSet && !spec.retention.enabled)
    bad('retention.enabled', 'must be true when a retentionPeriod is set');

  if (spec.rules !== undefined) {
    selectorIssues('rules.selector', spec.rules.selector, bad);
    if (spec.rules.namespaceSelector !== undefined)
      selectorIssues('rules.namespaceSelector', spec.rules.namespaceSelector, bad);
  }

  // runtime.yaml's `*` entry holds the global limits (logsvc applies it to every tenant).
  if (spec.limits.tenants?.['*'] !== undefined)
    bad('limits.tenants.*', 'is not a tenant ID: limits for every tenant go in limits.global');

  const needAtLeastOne = (path: string, replicas: number) => {
    if (replicas < 1) bad(`components.${path}.replicas`, `must be at least 1 in mode ${spec.mode}`);
  };
  let ingesters = 1;
  if (spec.mode === 'SimpleScalable') {
    needAtLeastOne('write', c.write.replicas);
    needAtLeastOne('read', c.read.replicas);
    needAtLeastOne('backend', c.backend.replicas);
    ingesters = c.write.replicas;
  } else if (spec.mode === 'Microservices') {
    needAtLeastOne('distributor', c.distributor.replicas);
    needAtLeastOne('ingester', c.ingester.replicas);
    needAtLeastOne('querier', c.querier.replicas);
    if (spec.ruler.enabled) needAtLeastOne('ruler', c.ruler.replicas);
    ingesters = c.ingester.replicas * Math.max(1, (spec.zones ?? []).length);
  } else {
    needAtLeastOne('singleBinary', c.singleBinary.replicas);
  }
  if (multiPod && spec.replicationFactor > ingesters)
    bad(
      'replicationFactor',
      `is ${spec.replicationFactor} but only ${ingesters} ingester${ingesters === 1 ? '' : 's'} would run`,
    );
  return issues;
}

type Selector = NonNullable<LogServiceSpec['rules']>['selector'];

/** What Kubernetes refuses in a label selector, with the path of the offending field. */
function selectorIssues(
  path: string,
  selector: Selector,
  bad: (path: string, message: string) => void,
): void {
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (!isLabelKey(key)) bad(`${path}.matchLabels`, `${JSON.stringify(key)} is not a label key`);
    if (!isLabelValue(value))
      bad(`${path}.matchLabels.${key}`, `${JSON.stringify(value)} is not a label value`);
  }
  (selector.matchExpressions ?? []).forEach((e, i) => {
    const at = `${path}.matchExpressions[${i}]`;
    const values = e.values ?? [];
    if (!isLabelKey(e.key)) bad(`${at}.key`, `${JSON.stringify(e.key)} is not a label key`);
    if ((e.operator === 'In' || e.operator === 'NotIn') && values.length === 0)
      bad(`${at}.values`, `must have at least one value with operator ${e.operator}`);
    if ((e.operator === 'Exists' || e.operator === 'DoesNotExist') && values.length > 0)
      bad(`${at}.values`, `must be empty with operator ${e.operator}`);
    for (const v of values)
      if (!isLabelValue(v)) bad(`${at}.values`, `${JSON.stringify(v)} is not a label value`);
  });
}

/** A Kubernetes label key: an optional DNS-subdomain prefix and `/`, then a label name. */
export function isLabelKey(key: string): boolean {
  const slash = key.lastIndexOf('/');
  const prefix = slash < 0 ? undefined : key.slice(0, slash);
  const name = key.slice(slash + 1);
  const validPrefix =
    prefix === undefined ||
    (prefix.length <= 253 &&
      /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(prefix));
  return validPrefix && name !== '' && isLabelValue(name);
}

/** A Kubernetes label value: empty, or up to 63 of [A-Za-z0-9-_.] with alphanumeric ends. */
export function isLabelValue(value: string): boolean {
  return value.length <= 63 && /^(?:[A-Za-z0-9](?:[-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/.test(value);
}
