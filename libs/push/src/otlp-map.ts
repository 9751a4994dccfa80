import {
  isValidLabelName,
  labelsToString,
  sortLabels,
  type LabelPair,
  type Labels,
  type LogEntry,
  type PushRequest,
  type PushStream,
} from '@logsvc/api';
import type { OtlpLogRecord, OtlpLogsRequest, OtlpResourceLogs } from './otlp-schema';
import { anyValueAsString, attributeToLabels } from './otlp-values';

/**
 * Resource attributes Loki 3.4 promotes to stream labels by default
 * (`-distributor.otlp.default_resource_attributes_as_index_labels`).
 */
export const DEFAULT_OTLP_INDEX_LABEL_ATTRIBUTES: readonly string[] = Object.freeze([
  'service.name',
  'service.namespace',
  'service.instance.id',
  'deployment.environment',
  'deployment.environment.name',
  'cloud.region',
  'cloud.availability_zone',
  'k8s.cluster.name',
  'k8s.namespace.name',
  'k8s.pod.name',
  'k8s.container.name',
  'container.name',
  'k8s.replicaset.name',
  'k8s.deployment.name',
  'k8s.statefulset.name',
  'k8s.daemonset.name',
  'k8s.cronjob.name',
  'k8s.job.name',
]);

const INDEX_LABEL_SET = new Set(DEFAULT_OTLP_INDEX_LABEL_ATTRIBUTES);

export interface OtlpMappingOptions {
  /** Normalized label names that may supply `service_name` (limits_config.discover_service_name). */
  discover_service_name: readonly string[];
  /** Used when a record has neither time_unix_nano nor observed_time_unix_nano. */
  nowNs: bigint;
}

/** Maps an OTLP logs request to streams the way Loki does with its default OTLP config. */
export function otlpToPushRequest(req: OtlpLogsRequest, opts: OtlpMappingOptions): PushRequest {
  const streams = new Map<string, PushStream>();
  for (const rl of req.resourceLogs) {
    const resource = mapResource(rl, opts.discover_service_name);
    if (resource === undefined) continue;
    let stream = streams.get(resource.key);
    for (const sl of rl.scopeLogs) {
      const scopeMetadata: LabelPair[] = [];
      for (const kv of sl.scope.attributes) attributeToLabels(kv.key, kv.value, '', scopeMetadata);
      if (sl.scope.name !== '') scopeMetadata.push({ name: 'scope_name', value: sl.scope.name });
      if (sl.scope.version !== '')
        scopeMetadata.push({ name: 'scope_version', value: sl.scope.version });
      if (sl.scope.droppedAttributesCount !== 0) {
        scopeMetadata.push({
          name: 'scope_dropped_attributes_count',
          value: String(sl.scope.droppedAttributesCount),
        });
      }
      for (const record of sl.logRecords) {
        if (stream === undefined) {
          stream = { labels: resource.labels, entries: [] };
          streams.set(resource.key, stream);
        }
        stream.entries.push(toEntry(record, resource.metadata, scopeMetadata, opts.nowNs));
      }
    }
  }
  return { streams: [...streams.values()] };
}

interface MappedResource {
  labels: Labels;
  key: string;
  metadata: LabelPair[];
}

function mapResource(
  rl: OtlpResourceLogs,
  discover: readonly string[],
): MappedResource | undefined {
  const streamLabels = new Map<string, string>();
  const metadata: LabelPair[] = [];
  let discovered: string | undefined;
  const discoverSet = new Set(discover);
  for (const kv of rl.resource.attributes) {
    if (!INDEX_LABEL_SET.has(kv.key)) {
      attributeToLabels(kv.key, kv.value, '', metadata);
      continue;
    }
    const pairs: LabelPair[] = [];
    attributeToLabels(kv.key, kv.value, '', pairs);
    for (const p of pairs) {
      streamLabels.set(p.name, p.value);
      if (discovered === undefined && p.value !== '' && discoverSet.has(p.name))
        discovered = p.value;
    }
  }
  if (!streamLabels.get('service_name') && discover.length > 0) {
    streamLabels.set('service_name', discovered ?? 'unknown_service');
  }
  const pairs: LabelPair[] = [];
  for (const [name, value] of streamLabels) {
    // An invalid label set skips the resource, as in Loki.
    if (!isValidLabelName(name)) return undefined;
    if (value !== '') pairs.push({ name, value });
  }
  const labels = sortLabels(pairs);
  return { labels, key: labelsToString(labels), metadata };
}

function toEntry(
  r: OtlpLogRecord,
  resourceMetadata: LabelPair[],
  scopeMetadata: LabelPair[],
  nowNs: bigint,
): LogEntry {
  const meta: LabelPair[] = [];
  for (const kv of r.attributes) attributeToLabels(kv.key, kv.value, '', meta);
  if (r.timeUnixNano !== 0n && r.observedTimeUnixNano !== 0n) {
    meta.push({ name: 'observed_timestamp', value: r.observedTimeUnixNano.toString() });
  }
  if (r.severityNumber !== 0)
    meta.push({ name: 'severity_number', value: String(r.severityNumber) });
  if (r.severityText !== '') meta.push({ name: 'severity_text', value: r.severityText });
  if (r.droppedAttributesCount !== 0)
    meta.push({ name: 'dropped_attributes_count', value: String(r.droppedAttributesCount) });
  if (r.flags !== 0) meta.push({ name: 'flags', value: String(r.flags >>> 0) });
  if (r.traceId.length > 0 && !isAllZero(r.traceId))
    meta.push({ name: 'trace_id', value: Buffer.from(r.traceId).toString('hex') });
  if (r.spanId.length > 0 && !isAllZero(r.spanId))
    meta.push({ name: 'span_id', value: Buffer.from(r.spanId).toString('hex') });
  meta.push(...resourceMetadata, ...scopeMetadata);
  const timestampNs =
    r.timeUnixNano !== 0n
      ? r.timeUnixNano
      : r.observedTimeUnixNano !== 0n
        ? r.observedTimeUnixNano
        : nowNs;
  return {
    timestampNs,
    line: Buffer.from(anyValueAsString(r.body), 'utf8'),
    structuredMetadata: sortLabels(meta.filter((p) => p.name !== '')),
  };
}

function isAllZero(b: Uint8Array): boolean {
  for (const x of b) if (x !== 0) return false;
  return true;
}
