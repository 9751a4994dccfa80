/**
 * `GET /loki/api/v1/drilldown-limits` (Loki 3.6, `tenantLimitsHandler` in
 * `pkg/loki/config_handler.go`): the tenant limits Grafana's Logs Drilldown app reads, as the
 * JSON Loki gives them (Prometheus durations and byte sizes as strings, keys sorted), with
 * whether the pattern ingester runs and the server's version.
 */
import { datasizeString, modelDurationString } from '@logsvc/gocompat';
import type { TenantLimits } from './sections/limits';

export interface DrilldownLimitsOptions {
  readonly patternIngesterEnabled: boolean;
  readonly version: string;
  /** Resource attributes promoted to stream labels (the default `otlp_config`). */
  readonly otlpIndexLabelAttributes: readonly string[];
}

export interface DrilldownLimits {
  readonly limits: Record<string, unknown>;
  readonly pattern_ingester_enabled: boolean;
  readonly version: string;
}

/** Loki's `otlp_config` default, as its JSON (Go field names, no json tags) reads back. */
function defaultOtlpConfig(attributes: readonly string[]) {
  return {
    LogAttributes: null,
    ResourceAttributes: {
      AttributesConfig: [{ Action: 'index_label', Attributes: [...attributes], Regex: '' }],
      IgnoreDefaults: false,
    },
    ScopeAttributes: null,
    SeverityTextAsLabel: false,
  };
}

/**
 * The limits of Loki's `tenant_limits_allow_publish` default list. Limits logsvc does not have
 * (`metric_aggregation_enabled`, `pattern_persistence_enabled`, `otlp_config`) carry Loki's
 * defaults, which is what logsvc does.
 */
export function drilldownLimits(
  limits: TenantLimits,
  options: DrilldownLimitsOptions,
): DrilldownLimits {
  const published: Record<string, unknown> = {
    discover_log_levels: limits.discover_log_levels,
    discover_service_name: limits.discover_service_name,
    log_level_fields: limits.log_level_fields,
    max_entries_limit_per_query: limits.max_entries_limit_per_query,
    max_line_size_truncate: limits.max_line_size_truncate,
    max_query_bytes_read: datasizeString(limits.max_query_bytes_read),
    max_query_length: modelDurationString(limits.max_query_length),
    max_query_lookback: modelDurationString(limits.max_query_lookback),
    max_query_range: modelDurationString(limits.max_query_range),
    max_query_series: limits.max_query_series,
    metric_aggregation_enabled: false,
    otlp_config: defaultOtlpConfig(options.otlpIndexLabelAttributes),
    pattern_persistence_enabled: false,
    query_timeout: modelDurationString(limits.query_timeout),
    retention_period: modelDurationString(limits.retention_period),
  };
  // `omitempty` in Loki: no key when there are no per-stream retentions.
  if (limits.retention_stream.length > 0) {
    published.retention_stream = limits.retention_stream.map((r) => ({
      period: modelDurationString(r.period),
      priority: r.priority,
      selector: r.selector,
    }));
  }
  published.volume_enabled = limits.volume_enabled;
  published.volume_max_series = limits.volume_max_series;
  return {
    limits: published,
    pattern_ingester_enabled: options.patternIngesterEnabled,
    version: options.version || 'unknown',
  };
}
