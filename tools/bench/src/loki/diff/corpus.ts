import type { DiffQuery } from './compare';

const PARSED_TRACE_ID =
  'trace_id: a parsed key named like structured metadata follows Loki 3.7 (docs/logql.md); Loki 3.4 decides per query from the first line';
const TIES = 'ties at the cut: logsvc ranks them by labels, Loki by Go map order (docs/logql.md)';
const AVG_SHARDING =
  'avg_over_time by () with unwrap: Loki 3.4 shards it with the unwrap left out of the count (docs/logql.md)';
/** Known differences the parity probes name too. */
export const VOLUME =
  'volume of ingester data: Loki counts chunk sizes with structured metadata (docs/api.md)';
export const DETECTED =
  'detected_fields: Loki estimates cardinality (HyperLogLog) and keeps fields under a limit in map order (docs/api.md)';
const LIMIT_CUT =
  'limit over streams that keep merges: Loki 3.4 returned an older entry instead of one of the newest (docs/logql.md)';
export const CATEGORIZED = { 'X-Loki-Response-Encoding-Flags': 'categorize-labels' };
const INTERVAL = 'interval: Loki 3.4 returns far fewer entries than one per interval (docs/api.md)';
const FORMAT =
  'format_query: logsvc prints LogQL that parses back to the same tree, not Loki String() spacing (docs/logql.md)';
const SERIES_MATCH =
  'series without match[]: the HTTP spec requires one (400); Loki 3.4 lists every series (docs/api.md)';
const EMPTY_REGEX =
  'label regex with an empty alternative: Loki simplifies it to always true before anchoring (docs/logql.md)';
const MAP_ORDER =
  'series that collide after label_replace: Loki orders the samples of a timestamp by Go map iteration';
const AMBIGUOUS_MATCH =
  'ambiguous vector matching: logsvc answers 400, Loki 3.4 500, with the same text (docs/api.md)';
const DOT_STAR_ALTERNATIVE =
  'line filter matching every line in one alternative (.* or ""): Loki 3.4 drops it when it simplifies to literals (docs/logql.md)';

/**
 * The queries `npm run diff:loki` sends to logsvc and Loki: log queries through every parser and
 * pipeline stage, metric queries (range and vector aggregations, binary operations, unwrap),
 * the label, series, stats, volume and Drilldown APIs, and invalid input. `known` names a
 * difference that logsvc keeps on purpose.
 */
export const DIFF_QUERIES: readonly DiffQuery[] = [
  { query: '{app="checkout"}', params: { limit: 50 } },
  { query: '{app="checkout"}', params: { limit: 50, direction: 'forward' } },
  {
    query: '{env="prod"} |= "order" | json',
    params: { limit: 40 },
    known: PARSED_TRACE_ID,
  },
  {
    query: '{env="prod"} | json | latency_ms > 400',
    params: { limit: 40 },
    known: PARSED_TRACE_ID,
  },
  { query: '{env="prod"} | logfmt | duration > 2ms', params: { limit: 40 } },
  { query: '{env="prod"} | logfmt | bytes >= 10KB', params: { limit: 40 } },
  {
    query: '{env="prod"} | json | __error__=""',
    params: { limit: 30 },
    known: PARSED_TRACE_ID,
  },
  {
    query: '{env="prod"} | json',
    params: { limit: 30 },
    known: PARSED_TRACE_ID,
  },
  { query: '{env="prod"} | logfmt', params: { limit: 30 } },
  { query: '{env="prod"} | logfmt | __error__!=""', params: { limit: 30 } },
  {
    query: '{env="prod"} | pattern "<ip> - - [<_>] \\"<method> <uri> <_>\\" <status> <size> <_>"',
    params: { limit: 30 },
  },
  { query: '{env="prod"} | regexp "rt=(?P<rt>[0-9.]+)" | rt > 0.3', params: { limit: 30 } },
  {
    query: '{env="prod"} | json | line_format "{{.level}} {{.msg | upper}}"',
    params: { limit: 30 },
    known: PARSED_TRACE_ID,
  },
  {
    query: '{env="prod"} | logfmt | label_format lvl=level, x="{{.status}}-{{.method}}"',
    params: { limit: 30 },
  },
  {
    query: '{env="prod"} | json | drop trace_id, user_id',
    params: { limit: 30 },
    known: PARSED_TRACE_ID,
  },
  { query: '{env="prod"} | json | keep level, app', params: { limit: 30 } },
  { query: '{env="prod"} | json level, lat="latency_ms"', params: { limit: 30 } },
  { query: '{env="prod", meta="yes"} | trace_id=~"^[0-3].*"', params: { limit: 30 } },
  { query: '{env="prod"} |~ "(?i)ERROR|warn"', params: { limit: 30 } },
  { query: '{env="prod"} != "GET" !~ "level=(info|debug)"', params: { limit: 30 } },
  { query: '{env="prod"} |> "<_> level=error <_>"', params: { limit: 30 } },
  {
    query: '{env="prod"} | decolorize | json | level="error"',
    params: { limit: 30 },
    known: PARSED_TRACE_ID,
  },
  { query: 'sum by (app) (count_over_time({env=~".+"}[5m]))', params: { step: '60' } },
  { query: 'sum by (level) (count_over_time({env=~".+"} | json [5m]))', params: { step: '120' } },
  { query: 'sum by (level) (count_over_time({env=~".+"} | logfmt [5m]))', params: { step: '120' } },
  { query: 'sum by (detected_level) (count_over_time({env=~".+"}[10m]))', params: { step: '300' } },
  { query: 'rate({app="checkout"}[1m])', params: { step: '60' } },
  { query: 'bytes_over_time({app="checkout"}[5m])', params: { step: '60' } },
  { query: 'bytes_rate({app="checkout"}[5m])', params: { step: '60' } },
  {
    query: 'avg_over_time({env="prod"} | json | unwrap latency_ms [5m])',
    params: { step: '120' },
    known: PARSED_TRACE_ID,
  },
  {
    query: 'max_over_time({env="prod"} | json | unwrap latency_ms [5m]) by (app)',
    params: { step: '120' },
  },
  {
    query: 'quantile_over_time(0.9, {env="prod"} | json | unwrap latency_ms [10m]) by (app)',
    params: { step: '300' },
  },
  {
    query: 'sum_over_time({env="prod"} | logfmt | unwrap bytes(bytes) [5m])',
    params: { step: '300' },
  },
  {
    query: 'avg_over_time({env="prod"} | logfmt | unwrap duration(duration) [5m]) by (app)',
    params: { step: '300' },
    known: AVG_SHARDING,
  },
  {
    query: 'stddev_over_time({env="prod"} | json | unwrap latency_ms [10m]) by (app)',
    params: { step: '300' },
  },
  {
    query: 'stdvar_over_time({env="prod"} | json | unwrap latency_ms [10m]) by (app)',
    params: { step: '300' },
  },
  {
    query: 'first_over_time({env="prod"} | json | unwrap latency_ms [10m]) by (app)',
    params: { step: '300' },
  },
  {
    query: 'last_over_time({env="prod"} | json | unwrap latency_ms [10m]) by (app)',
    params: { step: '300' },
  },
  {
    query: 'min_over_time({env="prod"} | json | unwrap status [10m])',
    params: { step: '300' },
    known: PARSED_TRACE_ID,
  },
  {
    query: 'rate_counter({env="prod"} | json | unwrap latency_ms [10m])',
    params: { step: '300' },
    known: PARSED_TRACE_ID,
  },
  { query: 'absent_over_time({app="nope"}[5m])', params: { step: '300' } },
  {
    query: 'topk(2, sum by (pod) (rate({env=~".+"}[5m])))',
    params: { step: '300' },
    known: TIES,
  },
  {
    query: 'bottomk(2, sum by (pod) (rate({env=~".+"}[5m])))',
    params: { step: '300' },
    known: TIES,
  },
  {
    query: 'sort_desc(sum by (app) (count_over_time({env=~".+"}[5m])))',
    path: '/loki/api/v1/query',
  },
  {
    query: 'sum(count_over_time({env=~".+"}[5m])) / sum(count_over_time({env="prod"}[5m]))',
    params: { step: '300' },
  },
  {
    query:
      'sum by (app) (count_over_time({env=~".+"} |= "error" [5m])) / on (app) sum by (app) (count_over_time({env=~".+"}[5m]))',
    params: { step: '300' },
  },
  {
    query: 'label_replace(sum by (app) (rate({env=~".+"}[5m])), "svc", "$1", "app", "(.*)-.*")',
    params: { step: '300' },
  },
  { query: 'sum by (app) (rate({env=~".+"}[5m] offset 5m))', params: { step: '300' } },
  { query: 'count(sum by (pod) (rate({env=~".+"}[5m])))', params: { step: '300' } },
  { query: 'avg by (env) (sum by (env, app) (rate({env=~".+"}[5m])))', params: { step: '300' } },
  { query: 'sum by (app) (rate({env=~".+"}[5m])) > 0.1', params: { step: '300' } },
  { query: 'sum by (app) (rate({env=~".+"}[5m])) > bool 0.1', params: { step: '300' } },
  { query: 'vector(1) + 2', params: { step: '300' } },
  {
    query: 'sum without (pod) (count_over_time({env=~".+"} | json [5m]))',
    params: { step: '300' },
  },
  {
    query:
      'sum by (status) (count_over_time({env=~".+"} | pattern "<_> - - [<_>] \\"<_> <_> <_>\\" <status> <_>" [5m]))',
    params: { step: '300' },
  },
  {
    query: 'count_over_time({env=~".+"} | json | latency_ms > 400 [5m])',
    params: { step: '300' },
    known: PARSED_TRACE_ID,
  },
  {
    query: 'sum(count_over_time({env=~".+"} | json [5m])) by (__error__)',
    params: { step: '300' },
  },
  { path: '/loki/api/v1/labels' },
  { path: '/loki/api/v1/label/app/values' },
  { path: '/loki/api/v1/label/pod/values', params: { query: '{app="checkout"}' } },
  { path: '/loki/api/v1/series', params: { 'match[]': '{app="checkout"}' } },
  { path: '/loki/api/v1/index/stats', params: { query: '{app="checkout"}' } },
  {
    path: '/loki/api/v1/index/volume',
    params: { query: '{env="prod"}' },
    known: VOLUME,
  },
  {
    path: '/loki/api/v1/index/volume_range',
    params: { query: '{env="prod"}', step: '600' },
    known: VOLUME,
  },
  { path: '/loki/api/v1/detected_labels', params: { query: '{env="prod"}' } },
  { path: '/loki/api/v1/detected_fields', params: { query: '{env="prod"}' } },
  { query: '{env="prod"} | json | bad syntax here' },
  { query: 'sum(rate({env="prod"}[5m])) by' },
  { query: '{env=~"("}' },
  { query: '{app="checkout"}', params: { limit: 'abc' } },
  { query: 'rate({app="checkout"}[1m])', params: { step: '0' } },
  {
    query:
      '{env="prod"} | logfmt | line_format "{{.method | lower}} {{ .path | trunc 8 }} {{ .status | int | add 1 }}" | __error__=""',
    params: { limit: 20 },
  },
  {
    query:
      '{env="prod"} | json | line_format "{{ if gt (.latency_ms | float64) 300.0 }}slow{{ else }}fast{{ end }} {{ .msg | replace \\"o\\" \\"0\\" }}"',
    params: { limit: 20 },
    known: PARSED_TRACE_ID,
  },
  {
    query:
      '{env="prod"} | json | label_format lat="{{ printf \\"%.1f\\" (.latency_ms | float64) }}", lvl="{{ .level | title }}" | keep lat, lvl, app',
    params: { limit: 20 },
  },
  {
    query:
      '{env="prod"} | json | line_format "{{ __line__ | len }} {{ __timestamp__ | unixEpoch }}"',
    params: { limit: 10 },
    known: PARSED_TRACE_ID,
  },
  {
    query: '{env="prod"} | logfmt | label_format dur="{{ .duration | duration }}" | keep dur',
    params: { limit: 10 },
  },
  { query: '{env="prod"} |= ip("10.0.0.0/8")', params: { limit: 20 } },
  { query: '{env="prod"} |= "GET" or "PATCH" != "healthz"', params: { limit: 20 } },
  { query: '{env="prod"} |~ "status\\":(4|5)\\\\d\\\\d"', params: { limit: 20 } },
  {
    query: '{env="prod"} | json m="method", p="path" | m="GET" | keep m, p',
    params: { limit: 20 },
  },
  {
    query:
      '{env="prod"} | regexp "(?P<ip>\\\\d+\\\\.\\\\d+\\\\.\\\\d+\\\\.\\\\d+) - - \\\\[(?P<when>[^\\\\]]+)\\\\]" | keep ip, when',
    params: { limit: 20 },
  },
  {
    query: '{env="prod"} | pattern "<_> level=<lvl> caller=<caller> <_>" | lvl="error"',
    params: { limit: 20 },
  },
  { query: '{env="prod"} | logfmt --strict', params: { limit: 20 } },
  { query: '{env="prod"} | logfmt --keep-empty | keep level', params: { limit: 20 } },
  {
    query:
      '{env="prod"} | json | status >= 400 and status < 500 or level="error" | keep status, level',
    params: { limit: 40 },
  },
  {
    query: '{env="prod"} | json | latency_ms > 100 and latency_ms <= 200 | keep latency_ms',
    params: { limit: 40 },
  },
  {
    query: '{env="prod"} | logfmt | duration > 100ms and bytes < 5KB | keep duration, bytes',
    params: { limit: 40 },
  },
  {
    query: '{env="prod"} | json | path =~ "/api/.*" | path !~ ".*orders.*" | keep path',
    params: { limit: 40 },
  },
  { query: '{app="checkout"}', params: { limit: 15, direction: 'forward', start: '0' } },
  { query: 'sum by (app) (count_over_time({env=~".+"}[2m]))', path: '/loki/api/v1/query' },
  { query: 'sum(rate({env=~".+"} |= "GET" [1m])) by (app)', params: { step: '37' } },
  { query: 'count_over_time({app="checkout"}[1m])', params: { step: '17' } },
  {
    query:
      'sum(count_over_time({env=~".+"}[3m])) by (app) * on(app) group_left() sum(bytes_over_time({env=~".+"}[3m])) by (app)',
    params: { step: '300' },
  },
  {
    query:
      'sum by (app) (count_over_time({env=~".+"}[5m])) and sum by (app) (count_over_time({env=~".+"} |= "error" [5m]))',
    params: { step: '300' },
  },
  {
    query:
      'sum by (app) (count_over_time({env=~".+"}[5m])) unless sum by (app) (count_over_time({env=~".+"} |= "PATCH" [5m]))',
    params: { step: '300' },
  },
  {
    query: 'sum by (app) (count_over_time({env=~".+"}[5m])) or vector(0)',
    params: { step: '300' },
  },
  {
    query: 'max by (app) (rate({env=~".+"}[5m])) - min by (app) (rate({env=~".+"}[5m]))',
    params: { step: '300' },
  },
  {
    query: 'stddev by (env) (sum by (env, app) (count_over_time({env=~".+"}[5m])))',
    params: { step: '300' },
  },
  { query: 'stdvar(sum by (app) (count_over_time({env=~".+"}[5m])))', params: { step: '300' } },
  { query: 'sort(sum by (app) (count_over_time({env=~".+"}[5m])))', path: '/loki/api/v1/query' },
  { query: 'topk(3, sum by (app) (count_over_time({env=~".+"}[5m])))', path: '/loki/api/v1/query' },
  {
    query: 'sum by (app) (count_over_time({env=~".+"} | json | __error__ = "JSONParserErr" [5m]))',
    params: { step: '300' },
  },
  {
    query:
      'sum by (lvl) (count_over_time({env=~".+"} | logfmt | label_format lvl=level | __error__="" [5m]))',
    params: { step: '300' },
  },
  {
    query: 'sum by (m) (count_over_time({env=~".+"} | json m="method" [5m]))',
    params: { step: '300' },
  },
  {
    query:
      'quantile_over_time(0.5, {env=~".+"} | logfmt | unwrap bytes | __error__="" [10m]) by (app)',
    params: { step: '300' },
  },
  {
    query:
      'sum(sum_over_time({env=~".+"} | json | unwrap latency_ms | __error__="" [5m])) by (level)',
    params: { step: '300' },
  },
  {
    query:
      'avg(avg_over_time({env=~".+"} | json | unwrap latency_ms | __error__="" [5m]) by (level))',
    params: { step: '300' },
    known: AVG_SHARDING,
  },
  {
    query: 'first_over_time({env=~".+"} | json | unwrap status | __error__="" [5m]) by (app)',
    params: { step: '300' },
  },
  {
    query: 'sum by (app) (count_over_time({env=~".+"}[5m] offset 10m))',
    path: '/loki/api/v1/query',
  },
  { query: 'absent_over_time({app="checkout"}[5m])', params: { step: '300' } },
  { query: 'sum(count_over_time({env=~".+"}[1h]))', path: '/loki/api/v1/query' },
  {
    query: 'rate({app="checkout"} | logfmt | unwrap bytes | __error__="" [5m])',
    params: { step: '300' },
  },
  { query: 'label_replace(vector(1), "x", "y", "", "")', params: { step: '300' } },
  { query: 'sum by (app) (rate({env=~".+"}[5m])) / 0', params: { step: '300' } },
  { query: '-sum by (app) (rate({env=~".+"}[5m]))', params: { step: '300' } },
  {
    query:
      'sum by (app) (rate({env=~".+"}[5m])) == bool on(app) sum by (app) (rate({env=~".+"}[5m]))',
    params: { step: '300' },
  },
  { path: '/loki/api/v1/labels', params: { query: '{app="checkout"}' } },
  { path: '/loki/api/v1/label/meta/values' },
  { path: '/loki/api/v1/series', params: { 'match[]': '{app=~"check.*|auth"}' } },
  { path: '/loki/api/v1/index/stats', params: { query: '{env="prod"}' } },
  { path: '/loki/api/v1/detected_field/level/values', params: { query: '{env="prod"}' } },
  { path: '/loki/api/v1/detected_field/status/values', params: { query: '{env="prod"}' } },
  { query: '{app="checkout"} | json | unwrap latency_ms' },
  { query: 'count_over_time({app="checkout"} | unwrap x [5m])' },
  { query: 'sum by (app) (count_over_time({app="checkout"}[5m])) > ' },
  { query: '{app="checkout"} |~ "(?<!a)b"' },
  { query: '{app="checkout"}', params: { limit: '-1' } },
  { query: 'rate({app="checkout"}[1m])', params: { step: '1', start: '0' } },
  // Chained and less common stages.
  {
    query: '{env="prod"} | json | line_format "{{.msg}} status={{.status}}" | logfmt',
    params: { limit: 30 },
    known: PARSED_TRACE_ID,
  },
  { query: '{env="prod"} |= "error" | logfmt | level=~"err.*"', params: { limit: 30 } },
  {
    query: '{env="prod"} | logfmt | label_format level="{{.level | ToUpper}}" | keep level',
    params: { limit: 30 },
  },
  { query: '{env="prod"} | unpack', params: { limit: 20 } },
  {
    query: '{env="prod"} | json | line_format "{{ regexReplaceAll \\"[0-9]+\\" .path \\"N\\" }}"',
    params: { limit: 30 },
    known: PARSED_TRACE_ID,
  },
  {
    query:
      '{env="prod"} | logfmt | line_format "{{ .level | default \\"none\\" }} {{ .missing | default \\"-\\" }}"',
    params: { limit: 30 },
  },
  { query: '{env="prod"} |= `order`', params: { limit: 30 } },
  { query: '{env="prod"} | json | status = 200 | keep status', params: { limit: 30 } },
  { query: '{env="prod"} | json | status != 200 | keep status', params: { limit: 30 } },
  {
    query: '{env="prod"} | logfmt | level = "error" or level = "warn" | keep level',
    params: { limit: 30 },
    known: LIMIT_CUT,
  },
  { query: '{env="prod"} | line_format "{{ __line__ | trunc 20 }}"', params: { limit: 30 } },
  {
    query: '{env="prod"} | regexp "(?P<verb>GET|POST) (?P<path>\\\\S+)" | keep verb, path',
    params: { limit: 30 },
  },
  { query: '{env="prod"} !~ ".*"', params: { limit: 30 } },
  { query: '{env="prod"} |~ "(?i)get"', params: { limit: 30 } },
  {
    query: '{env="prod"} | json | line_format "{{ .latency_ms }}" | keep app',
    params: { limit: 30 },
  },
  { query: '{app="checkout"}', path: '/loki/api/v1/query', params: { limit: 5 } },
  {
    query: '{env="prod"} | logfmt | line_format "{{ .msg | replace \\" \\" \\"_\\" | lower }}"',
    params: { limit: 30 },
  },
  {
    query:
      '{env="prod"} | json | label_format status_class="{{ substr 0 1 .status }}xx" | keep status_class',
    params: { limit: 30 },
  },
  { query: '{env="prod"} | logfmt | drop level="info"', params: { limit: 30 } },
  { query: '{env="prod"} | json | keep level="error", app', params: { limit: 30 } },
  // Metric queries.
  { query: 'sum by (app) (rate({env=~".+"} | json | __error__="" [5m]))', params: { step: '300' } },
  { query: 'sum(rate({env=~".+"}[5m])) by (app) * 60', params: { step: '300' } },
  { query: 'count_over_time({app="checkout"}[30s])', params: { step: '15' } },
  { query: 'max(sum by (app) (rate({env=~".+"}[5m])))', params: { step: '300' } },
  {
    query: 'min_over_time({env=~".+"} | logfmt | unwrap bytes | __error__="" [5m]) by (app)',
    params: { step: '300' },
  },
  { query: 'sum by (app) (bytes_over_time({env=~".+"} |= "GET" [5m]))', params: { step: '300' } },
  {
    query: 'topk(1, sum by (app, env) (count_over_time({env=~".+"}[5m]))) by (env)',
    params: { step: '300' },
    known: TIES,
  },
  {
    query:
      'sum(count_over_time({env=~".+"}[5m])) by (env, app) / ignoring(app) group_left sum(count_over_time({env=~".+"}[5m])) by (env)',
    params: { step: '300' },
  },
  { query: 'vector(0) or sum(count_over_time({app="nope"}[5m]))', params: { step: '300' } },
  { query: 'sum by (app) (count_over_time({env=~".+"}[5m])) % 7', params: { step: '300' } },
  { query: 'sum by (app) (count_over_time({env=~".+"}[5m])) ^ 2', params: { step: '300' } },
  { query: 'absent_over_time({app="checkout"} |= "zzz" [5m])', params: { step: '300' } },
  {
    query: 'sum by (level) (count_over_time({env=~".+"} | logfmt | level != "" [5m]))',
    params: { step: '300' },
  },
  { query: 'sum(count_over_time({env=~".+"}[5m])) by (app) > 10 < 1000', params: { step: '300' } },
  { query: 'count(count_over_time({env=~".+"}[5m])) by (env)', params: { step: '300' } },
  {
    query: 'sum by (app) (count_over_time({env=~".+"}[5m])) unless on (app) vector(1)',
    params: { step: '300' },
  },
  { query: 'sum by (app) (count_over_time({env=~".+"}[10m]))', params: { step: '0.5m' } },
  { query: 'sum by (app) (count_over_time({env=~".+"}[10m]))', params: { step: '7m' } },
  { query: 'sum by (app) (count_over_time({env=~".+"}[1m:]))' },
  { query: 'sum by (app) (count_over_time({env=~".+"} | json | unwrap latency_ms [5m]))' },
  {
    query: 'bottomk(1, sum by (app) (count_over_time({env=~".+"}[5m])))',
    path: '/loki/api/v1/query',
  },
  { query: 'sum(rate({env=~".+"}[5m]))', path: '/loki/api/v1/query', params: { time: '0' } },
  // Limits and invalid requests.
  { query: '{app="checkout"}', params: { limit: 6000 } },
  { query: '{app="checkout"}', params: { direction: 'sideways' } },
  { query: 'rate({app="checkout"}[1m])', params: { step: '0' } },
  { query: 'rate({app="checkout"}[1m])', params: { step: '-5' } },
  { query: '{}' },
  { query: '{app=~".*"}' },
  { query: '{app!="x"}' },
  { query: 'rate({app="checkout"}[0s])' },
  { query: 'rate({app="checkout"})' },
  { query: 'sum by (app) (count_over_time({app="checkout"} | json | foo > "x" [5m]))' },
  { query: '{app="checkout"} | json | line_format "{{.nope"' },
  { query: '{app="checkout"} | label_format a=b, a=c' },
  { query: 'topk(-1, sum by (app) (rate({env=~".+"}[5m])))' },
  {
    query: 'quantile_over_time(2, {env=~".+"} | json | unwrap latency_ms [5m])',
    known: PARSED_TRACE_ID,
  },
  { path: '/loki/api/v1/query_range' },
  { path: '/loki/api/v1/labels', params: { start: 'yesterday' } },
  { path: '/loki/api/v1/label/app/values', params: { query: '{env="prod"}' } },
  { path: '/loki/api/v1/series', params: { 'match[]': '{app="checkout"} |= "x"' } },
  { path: '/loki/api/v1/series', known: SERIES_MATCH },
  { path: '/loki/api/v1/index/stats', params: { query: '{app=~"check.*"} |= "GET"' } },
  { path: '/loki/api/v1/detected_labels', params: { query: '{app="checkout"}' } },
  {
    path: '/loki/api/v1/detected_fields',
    params: { query: '{app="checkout"} | logfmt' },
    known: DETECTED,
  },
  {
    path: '/loki/api/v1/format_query',
    params: { query: 'sum(rate({app="checkout"}|="x"[5m]))by(app)' },
    known: FORMAT,
  },
  // Where Loki's parser reports syntax errors (line 0 after ranges, durations, two-character operators).
  { query: 'count_over_time({app="checkout"})' },
  { query: 'rate({ app = "checkout" }[5minutes])' },
  { query: 'rate({ app = "checkout" }[5)' },
  { query: 'rate({ app = "checkout" }[])' },
  { query: 'rate({ app = "checkout" }[5m1h])' },
  { query: 'min({ app = "checkout" }[5m])' },
  { query: '{app="checkout"} |= "a" |=' },
  { query: '{app="checkout"} != != "x"' },
  { query: '{app="checkout"} | logfmt --strict --bad' },
  { query: 'sum by (app) (rate({app="checkout"}[5m])) offset 5m' },
  { query: '{app="checkout"} | json | latency_ms > 5m 5m' },
  { query: '{app="checkout"} | json | size > 5KB 5KB' },
  { query: 'sum(rate({app="checkout"}[5m]) by (app)' },
  { query: 'count_over_time({app="checkout"} | unwrap x [5m])/' },
  { query: 'count_over_time({env="prod"} !~ ".*|=" [5m])', known: DOT_STAR_ALTERNATIVE },
  { query: 'sum(count_over_time({env="prod"} |~ "=|.*" [5m]))', known: DOT_STAR_ALTERNATIVE },
  // Loki's parser pulls tokens one at a time: a syntax error before a bad token comes first.
  { query: '{app=kout"}' },
  { query: '{env~".+"}' },
  { query: '{="checkout"}' },
  { query: 'sum by (app)] (rate({env=~".+"}[5m]))' },
  { query: '{app="a"} |= "x\\q"' },
  { query: '{app="a\\400"}' },
  { query: 'sum_over_time({app="checkout"} | logfmt | unwrap bytes | __error__="" 5m])' },
  { query: 'sum_over_time({app="checkout"} | logfmt | unwrap bytes)' },
  { query: '{env="prod"} |~ "(?P<v/erb>x)"' },
  {
    query: '{env="prod"} |= "" or "PATCH" != "healthz"',
    params: { limit: 20 },
    known: DOT_STAR_ALTERNATIVE,
  },
  { query: '{env="prod"} | logfmt v="a-b"' },
  { query: '{env="prod"} | logfmt v="a b"' },
  { query: '{env="prod"} | logfmt v=""' },
  { query: '{env="prod", meta!="yes"} | logfmt v="\\"caller\\"" | keep v', params: { limit: 20 } },
  { query: '{env="prod"} | logfmt | status < 50evel="x"' },
  { query: 'count_over_time({app="checkout"} | unwrap != [5m])' },
  {
    query: '{env="prod", meta!="yes"} | json | line_format "{{ substr .msg }}" | keep app',
    params: { limit: 5 },
  },
  { query: '{a="b"} | x > 1 ,| keep x' },
  { query: 'vector(0x)' },
  { query: 'vector(1__0)' },
  { query: '{env="prod"} | logfmt | status > 09' },
  { query: '2 ^ 3__error_offset_ ^ 2' },
  { query: 'sum(rate({app="checkout"}[5m])) by app' },
  { query: '{app="checkout"} | line_format' },
  { query: '{app="checkout"}\n| json\n| x >' },
  { query: 'rate(\n{app="checkout"}\n[5x])' },
  { query: '{app="checkout"} != 5' },
  { query: '{app="checkout"} != {app="auth"}' },
  { query: '{app="checkout"} + 1' },
  { query: 'rate({app="checkout"}[5m] x)' },
  { query: 'rate({app="checkout"} | json x)' },
  { query: 'sum(rate({app="checkout"}[5m]) x)' },
  { query: '(sum(rate({app="checkout"}[5m])) x' },
  { query: 'label_replace(rate({app="checkout"}[5m]) "a", "b", "c", "d")' },
  { query: 'vector(1 x)' },
  { query: 'sum by (app (rate({app="checkout"}[5m]))' },
  { query: '- 5m' },
  { query: '-5m' },
  { query: '1-0' },
  { query: '{app="checkout"} | x = - 5m' },
  { query: 'sum(\n  rate({app="checkout"}[5m]\n)' },
  { query: '{app="checkout"} |= "x" |= 5' },
  // Template functions.
  {
    query:
      '{env="prod"} | json | line_format "{{ .status | int | mul 2 }} {{ .latency_ms | float64 | round }}"',
    params: { limit: 20 },
    known: PARSED_TRACE_ID,
  },
  {
    query: '{env="prod"} | json | line_format "{{ .msg | b64enc }}" | keep app',
    params: { limit: 20 },
  },
  {
    query: '{env="prod"} | json | line_format "{{ .path | urlencode }}" | keep app',
    params: { limit: 20 },
  },
  {
    query:
      '{env="prod"} | json | line_format "{{ alignLeft 5 .app }}|{{ alignRight 5 .app }}" | keep app',
    params: { limit: 20 },
  },
  {
    query: '{env="prod"} | json | line_format "{{ .msg | count \\"e\\" }}" | keep app',
    params: { limit: 20 },
  },
  {
    query:
      '{env="prod"} | logfmt | line_format "{{ if hasPrefix \\"GET\\" .method }}get{{ else }}{{ .method | lower }}{{ end }}" | keep app',
    params: { limit: 20 },
  },
  {
    query:
      '{env="prod"} | logfmt | line_format "{{ .duration | duration_seconds }} {{ .bytes | bytes }}" | keep app',
    params: { limit: 20 },
  },
  {
    query:
      '{env="prod"} | json | line_format "{{ max 3 7 }} {{ minf 1.5 2 }} {{ ceil 1.2 }} {{ floor 1.8 }} {{ div 7 2 }} {{ mod 7 2 }}" | keep app',
    params: { limit: 5 },
  },
  {
    query:
      '{env="prod"} | json | line_format "{{ .msg | repeat 2 | trunc -4 }} {{ trimAll \\"r\\" .msg }}" | keep app',
    params: { limit: 20 },
  },
  {
    query:
      '{env="prod"} | json | line_format "{{ substr 2 5 .msg }} {{ .msg | title }} {{ contains \\"a\\" .msg }}" | keep app',
    params: { limit: 20 },
  },
  {
    query:
      '{env="prod"} | json | line_format "{{ regexReplaceAllLiteral \\"[aeiou]\\" .msg \\"$1\\" }}" | keep app',
    params: { limit: 20 },
  },
  {
    query:
      '{env="prod"} | json | line_format "{{ .nope | default \\"x\\" | upper }}{{ printf \\"%05.1f\\" 3.14159 }}" | keep app',
    params: { limit: 5 },
  },
  {
    query: '{env="prod"} | line_format "{{ __timestamp__ | date \\"2006-01-02\\" }}" | keep app',
    params: { limit: 5 },
  },
  {
    query: '{env="prod"} | json | label_format msg_len="{{ len .msg }}" | keep msg_len',
    params: { limit: 20 },
  },
  // Unwrap conversions and post filters.
  {
    query:
      'avg_over_time({env=~".+"} | logfmt | unwrap duration_seconds(duration) | __error__="" [5m]) by (app)',
    params: { step: '300' },
    known: AVG_SHARDING,
  },
  {
    query: 'sum by (app) (rate({env=~".+"} | logfmt | unwrap bytes(bytes) | __error__="" [5m]))',
    params: { step: '300' },
  },
  {
    query: 'max_over_time({env=~".+"} | json | unwrap latency_ms | latency_ms > 100 [5m]) by (app)',
    params: { step: '300' },
  },
  {
    query: 'sum by (app) (sum_over_time({env=~".+"} | json | unwrap status | __error__="" [5m]))',
    params: { step: '300' },
  },
  // Other metric shapes.
  { query: '2 * sum by (app) (count_over_time({env=~".+"}[5m]))', params: { step: '300' } },
  { query: 'sum by (app) (count_over_time({env=~".+"}[5m])) == 0', params: { step: '300' } },
  {
    query: 'sum by (app) (count_over_time({env=~".+"} | drop level [5m]))',
    params: { step: '300' },
  },
  {
    query: 'sum(count_over_time({env=~".+"} | json | line_format "{{.level}}" [5m]))',
    params: { step: '300' },
  },
  { query: 'count_over_time({app="checkout"} |~ "(?i)get" [5m])', params: { step: '300' } },
  {
    query:
      'sum by (env) (count_over_time({env=~".+"}[5m])) * on (env) group_right () sum by (env, app) (count_over_time({env=~".+"}[5m]))',
    params: { step: '300' },
  },
  {
    query: 'sum(count_over_time({env=~".+"}[5m])) by (app) and on () vector(1)',
    params: { step: '300' },
  },
  {
    query: 'sum by (app) (count_over_time({env=~".+"}[5m]))',
    path: '/loki/api/v1/query',
    params: { time: '1' },
  },
  // Log query parameters.
  { query: '{app="checkout"}', params: { limit: 20, direction: 'FORWARD' } },
  { query: '{app="checkout"}', params: { limit: 20, since: '10m' } },
  { query: '{app="checkout"}', params: { limit: 0 } },
  { query: '{app="checkout"}', params: { limit: 'abc' } },
  { query: 'rate({app="checkout"}[1m])', params: { step: 'abc' } },
  { query: 'rate({app="checkout"}[1m])', params: { start: 'abc' } },
  // Metadata APIs.
  { path: '/loki/api/v1/labels', params: { since: '10m' } },
  { path: '/loki/api/v1/label/service_name/values' },
  { path: '/loki/api/v1/label/nope/values' },
  {
    path: '/loki/api/v1/index/volume',
    params: { query: '{env="prod"}', aggregateBy: 'labels' },
    known: VOLUME,
  },
  {
    path: '/loki/api/v1/index/volume',
    params: { query: '{env=~".+"}', targetLabels: 'app' },
    known: VOLUME,
  },
  {
    path: '/loki/api/v1/detected_fields',
    params: { query: '{env="prod"}', limit: 2 },
    known: DETECTED,
  },
  { path: '/loki/api/v1/detected_labels' },
  // Grafana asks for labels, structured metadata and parsed labels apart.
  { query: '{env="prod", meta="yes"}', params: { limit: 20 }, headers: CATEGORIZED },
  { query: '{env="prod", meta="yes"} | logfmt', params: { limit: 20 }, headers: CATEGORIZED },
  { query: '{env="prod"} | json | keep level, app', params: { limit: 20 }, headers: CATEGORIZED },
  {
    query: 'sum by (app) (count_over_time({env=~".+"}[5m]))',
    params: { step: '300' },
    headers: CATEGORIZED,
  },
  {
    query: '{env="prod", meta="yes"}',
    path: '/loki/api/v1/query',
    params: { limit: 5 },
    headers: CATEGORIZED,
  },
  // More template functions, vector matching and label filters.
  {
    query:
      '{env="prod", meta!="yes"} | json | line_format "{{ if eq .level \\"error\\" }}E{{ else }}O{{ end }} {{.msg}}"',
    params: { limit: 20 },
  },
  {
    query: '{env="prod"} | logfmt | label_format d="{{ default \\"none\\" .missing }}" | keep d',
    params: { limit: 10 },
  },
  {
    query:
      '{env="prod", meta!="yes"} | json | line_format "{{ printf \\"%05d\\" .status }} {{ printf \\"%.2f\\" .latency_ms }}"',
    params: { limit: 20 },
  },
  {
    query:
      '{env="prod", meta!="yes"} | json | label_format t="{{ __timestamp__ | unixEpoch }}" | keep t',
    params: { limit: 10 },
  },
  {
    query:
      '{env="prod", meta!="yes"} | json | label_format t="{{ __timestamp__ | unixEpochMillis }}" | keep t',
    params: { limit: 10 },
  },
  {
    query: '{env="prod"} | logfmt | line_format "{{ .msg | substr 0 5 }}|{{ .msg | trunc -4 }}"',
    params: { limit: 20 },
  },
  {
    query:
      '{env="prod", meta!="yes"} | json | line_format "{{ .msg | trimPrefix \\"o\\" | title }}"',
    params: { limit: 20 },
  },
  {
    query:
      '{env="prod", meta!="yes"} | json | line_format "{{ .latency_ms | float64 | mulf 2 }} {{ .status | int | add 1 }}"',
    params: { limit: 20 },
  },
  {
    query:
      '{env="prod", meta!="yes"} | json | line_format "{{ divf .latency_ms 3 }} {{ div .status 7 }} {{ mod .status 7 }}"',
    params: { limit: 20 },
  },
  {
    query:
      '{env="prod", meta!="yes"} | json | line_format "{{ round .latency_ms 1 }} {{ ceil .latency_ms }} {{ floor .latency_ms }}"',
    params: { limit: 20 },
  },
  {
    query:
      '{env="prod", meta!="yes"} | json | line_format "[{{ alignLeft 5 .msg }}|{{ alignRight 8 .app }}]"',
    params: { limit: 20 },
  },
  {
    query: '{env="prod", meta!="yes"} | json | line_format "{{ .msg | repeat 2 | indent 2 }}"',
    params: { limit: 10 },
  },
  {
    query:
      '{env="prod", meta!="yes"} | json | line_format "{{ contains \\"order\\" .msg }} {{ hasPrefix \\"c\\" .app }} {{ hasSuffix \\"t\\" .app }}"',
    params: { limit: 20 },
  },
  {
    query:
      '{env="prod", meta!="yes"} | json | line_format "{{ maxf .latency_ms 300 }} {{ min .status 300 }}"',
    params: { limit: 20 },
  },
  {
    query:
      '{env="prod", meta!="yes"} | json | line_format "{{ __line__ | len }} {{ .msg | b64enc | b64dec }}"',
    params: { limit: 20 },
  },
  {
    query:
      '{env="prod"} | logfmt | line_format "{{ regexReplaceAllLiteral \\"[aeiou]\\" .msg \\"$1\\" }}"',
    params: { limit: 20 },
  },
  {
    query:
      '{env="prod", meta!="yes"} | json | line_format "{{ with .level }}L={{ . }}{{ end }}{{ range $i, $c := list }}{{ end }}"',
    params: { limit: 10 },
  },
  {
    query: '{env="prod", meta!="yes"} | json | line_format "{{ .nope.deeper }}"',
    params: { limit: 10 },
  },
  {
    query:
      '{env="prod"} | logfmt | line_format "{{ toDateInZone \\"2006-01-02T15:04:05Z07:00\\" \\"UTC\\" .ts | unixEpoch }}"',
    params: { limit: 10 },
  },
  {
    query:
      '{env="prod"} | regexp "(?P<ip>\\\\d+\\\\.\\\\d+\\\\.\\\\d+\\\\.\\\\d+)" | line_format "{{.ip}}"',
    params: { limit: 20 },
  },
  { query: '{env="prod"} |~ "\\\\d{3} \\\\d+"', params: { limit: 20 } },
  { query: '{env="prod"} |= ip("10.0.0.1-10.200.0.200")', params: { limit: 20 } },
  {
    query: '{env="prod"} | pattern "<ip> <_>" | ip = ip("10.0.0.0/8") | keep ip',
    params: { limit: 20 },
  },
  {
    query: '{env="prod"} | logfmt | status >= 400 or status = 0 | keep status',
    params: { limit: 20 },
  },
  {
    query:
      '{env="prod", meta!="yes"} | json | label_format status="{{ .status }}" | status > 400 | keep status',
    params: { limit: 20 },
  },
  {
    query: '{env="prod", meta!="yes"} | json | keep app | line_format "{{.app}}"',
    params: { limit: 10 },
  },
  {
    query: '{env="prod", meta!="yes"} | json | label_format app="{{.app}}x" | app="checkoutx"',
    params: { limit: 10 },
  },
  { query: '{env="prod", meta!="yes"} | json | latency_ms > 1s', params: { limit: 10 } },
  {
    query:
      '{env="prod"} | logfmt | duration >= 20ms and duration < 1s or bytes > 1MB | keep duration',
    params: { limit: 20 },
  },
  {
    query: '{env="prod", meta!="yes"} | json | msg =~ "(?i)ORDER.*" | keep msg',
    params: { limit: 20 },
  },
  {
    query: '{env="prod", meta!="yes"} | json | msg !~ "" | keep msg',
    params: { limit: 5 },
    known: EMPTY_REGEX,
  },
  {
    query: '{env="prod", meta!="yes"} | json | msg =~ "" | keep msg',
    params: { limit: 5 },
    known: EMPTY_REGEX,
  },
  { query: '{env="prod", meta!="yes"} | json | nope =~ "" | keep msg', params: { limit: 5 } },
  {
    query:
      '{env="prod", meta!="yes"} | json | line_format "{{ printf \\"%05d|%-4s|\\" .nope .level }}"',
    params: { limit: 10 },
  },
  {
    query: '{env="prod"} | logfmt | line_format "{{.level}}" | label_format lv=__line__ | keep lv',
    params: { limit: 10 },
  },
  {
    query:
      'sum by (app, pod) (count_over_time({env=~".+"}[5m])) / on (app) group_left sum by (app) (count_over_time({env=~".+"}[5m]))',
    params: { step: '300' },
  },
  {
    query:
      'sum by (app) (count_over_time({env=~".+"}[5m])) / on (app) group_right sum by (app, pod) (count_over_time({env=~".+"}[5m]))',
    params: { step: '300' },
  },
  {
    query:
      'sum by (app) (rate({env=~".+"}[5m])) * ignoring (pod) sum by (app) (rate({env=~".+"}[5m]))',
    params: { step: '300' },
  },
  {
    query:
      'sum by (app) (rate({env=~".+"}[5m])) / ignoring (app) group_left sum(rate({env=~".+"}[5m]))',
    params: { step: '300' },
  },
  {
    query:
      'sum by (app, pod) (count_over_time({env=~".+"}[5m])) / on (app) sum by (app, pod) (count_over_time({env=~".+"}[5m]))',
    params: { step: '300' },
    known: AMBIGUOUS_MATCH,
  },
  { query: 'count_over_time({app="checkout"}[5m]) > bool 10', params: { step: '300' } },
  { query: '10 < count_over_time({app="checkout"}[5m])', params: { step: '300' } },
  {
    query: 'max_over_time({env="prod"} | logfmt | unwrap duration(duration) [5m]) without (pod)',
    params: { step: '300' },
  },
  {
    query:
      'quantile_over_time(0.5, {env="prod"} | logfmt | unwrap bytes(bytes) [5m]) without (pod, env)',
    params: { step: '300' },
  },
  {
    query: 'sum(count_over_time({env=~".+"}[5m])) by (app) > sum(count_over_time({env=~".+"}[5m]))',
    params: { step: '300' },
  },
  {
    query: 'sum by (level) (count_over_time({env=~".+"} | logfmt | keep level [5m]))',
    params: { step: '300' },
  },
  { query: 'rate({app="checkout"} |= "GET" [5m]) * 0 + 1', params: { step: '300' } },
  {
    query:
      'sum by (app) (count_over_time({env=~".+"} | logfmt | label_format lvl="{{.level}}" | lvl="error" [5m]))',
    params: { step: '300' },
  },
  {
    query: 'topk by (app) (1, sum by (app, pod) (rate({env=~".+"}[5m])))',
    params: { step: '300' },
    known: TIES,
  },
  {
    query: 'sum by (app) (count_over_time({env=~".+"} | json | status >= 500 [5m]))',
    params: { step: '300' },
  },
  {
    query: 'sum(count_over_time({env=~".+"} | json | line_format "{{.app}}" |= "checkout" [5m]))',
    params: { step: '300' },
  },
  {
    query: 'sum(bytes_over_time({env="prod"} | json | msg=~".+" [5m])) by (app)',
    params: { step: '300' },
  },
  {
    query: 'absent_over_time({app="checkout"} | json | level="nope" [5m])',
    params: { step: '300' },
  },
  {
    query:
      'sum by (app) (count_over_time({env=~".+"}[5m])) and sum by (app) (count_over_time({env="prod"}[5m]))',
    params: { step: '300' },
  },
  { query: 'sum by (app) (count_over_time({env=~".+"}[5m] offset 1h))', params: { step: '300' } },
  {
    query:
      'sum by (app) (avg_over_time({env="prod"} | json | unwrap latency_ms | __error__="" [5m] offset 2m))',
    params: { step: '300' },
  },
  {
    query: 'count(sum by (app, pod) (count_over_time({env=~".+"}[5m]))) by (app)',
    params: { step: '300' },
  },
  { query: 'avg(rate({env=~".+"}[5m])) without (pod)', params: { step: '300' } },
  {
    query: 'sum_over_time({env="prod"} | json | unwrap latency_ms [5m]) without (app, pod, env)',
    params: { step: '300' },
  },
  {
    query:
      'stddev_over_time({env="prod"} | logfmt | unwrap bytes(bytes) | __error__="" [5m]) by (app)',
    params: { step: '300' },
  },
  {
    query:
      'sum by (app) (rate({env=~".+"} | logfmt | unwrap duration_seconds(duration) | __error__="" [5m]))',
    params: { step: '300' },
  },
  { query: 'sum(count_over_time({env=~".+"}[5m])) - 1 > 0 < 100000', params: { step: '300' } },
  { query: '-vector(2) ^ 2' },
  { query: '2 ^ 3 ^ 2' },
  { query: '(1 + 2) * 3 - 4 / 2 % 3' },
  { query: 'vector(5) > bool 3' },
  { query: 'sum(vector(1)) by (x)' },
  {
    query:
      'sum by (app) (count_over_time({env=~".+"} | json | unwrap status | __error__="" [5m])) / 1000',
    params: { step: '300' },
  },
  {
    query: '{env="prod", meta!="yes"} | json',
    path: '/loki/api/v1/query',
    params: { limit: 5, direction: 'forward' },
    known: PARSED_TRACE_ID,
  },
  { query: 'sum by (app) (count_over_time({env=~".+"}[10m]))', path: '/loki/api/v1/query' },
  { query: 'sum by (app) (rate({env=~".+"}[5m])) > 0.5', path: '/loki/api/v1/query' },
  // Parsers' parameters and errors, filters, scalar arithmetic, parameters.
  {
    query: '{env="prod", meta!="yes"} | logfmt level, d="duration" | keep level, d',
    params: { limit: 10 },
  },
  { query: '{env="prod", meta!="yes"} | json a="b["', params: { limit: 5 } },
  { query: '{env="prod", meta!="yes"} | json lvl="level", m=msg', params: { limit: 5 } },
  { query: '{env="prod", meta!="yes"} | regexp "[0-9]+"', params: { limit: 5 } },
  { query: '{env="prod", meta!="yes"} | regexp "(?P<a>x)(?P<a>y)"', params: { limit: 5 } },
  { query: '{env="prod", meta!="yes"} | pattern "<_>"', params: { limit: 5 } },
  { query: '{env="prod", meta!="yes"} | pattern "<a><b>"', params: { limit: 5 } },
  {
    query: '{env="prod", meta!="yes"} | pattern "<ip> <_> <_> [<ts>] <_>" | keep ip, ts',
    params: { limit: 10 },
  },
  { query: '{env="prod", meta!="yes"} | unpack | keep app', params: { limit: 5 } },
  { query: '{env="prod", meta!="yes"} |= "" != ""', params: { limit: 5 } },
  {
    query: '{env="prod", meta!="yes"} |= "GET" |= "GET" != "POST" |~ "HTTP/1\\\\.[01]"',
    params: { limit: 10 },
  },
  {
    query:
      '{env="prod", meta!="yes"} |~ "(?i)get|post" | logfmt | method=~"GET|POST" | keep method',
    params: { limit: 10 },
  },
  { query: '{env="prod", meta!="yes"} | logfmt | status > "200"', params: { limit: 5 } },
  {
    query: '{env="prod", meta!="yes"} | logfmt | status == 200 | keep status',
    params: { limit: 5 },
  },
  {
    query: '{env="prod", meta!="yes"} | logfmt | bytes > 1.5KiB | keep bytes',
    params: { limit: 10 },
  },
  {
    query: '{env="prod", meta!="yes"} | logfmt | duration > 1.5e1ms | keep duration',
    params: { limit: 10 },
  },
  {
    query: '{env="prod", meta!="yes"} | json | __error__ != "" | drop __error__, __error_details__',
    params: { limit: 5 },
  },
  {
    query: '{env="prod", meta!="yes"} | json | line_format "{{ __line__ }}" | drop __error__',
    params: { limit: 5 },
  },
  { query: '{env="prod", meta!="yes"} | line_format "" | logfmt', params: { limit: 5 } },
  { query: '{env="prod", meta!="yes"} | label_format env=app | keep env', params: { limit: 5 } },
  { query: '{env="prod", meta!="yes"} | label_format __error__="x"', params: { limit: 5 } },
  { query: '{env="prod", meta!="yes"} | keep app, env, nope | app="auth"', params: { limit: 5 } },
  { query: '{env="prod", meta!="yes"} | drop app="auth", env', params: { limit: 5 } },
  { query: 'first_over_time({app="checkout"}[5m])', params: { step: '300' } },
  { query: 'rate({app="checkout"} | logfmt | unwrap status [5m])', params: { step: '300' } },
  { query: 'sum(rate({app="checkout"} | json | unwrap msg [5m]))', params: { step: '300' } },
  {
    query:
      'quantile_over_time(-1, {env="prod"} | logfmt | unwrap bytes(bytes) | __error__="" [5m])',
    params: { step: '300' },
  },
  {
    query:
      'quantile_over_time(0, {env="prod"} | logfmt | unwrap bytes(bytes) | __error__="" [5m]) by (app)',
    params: { step: '300' },
  },
  { query: 'topk(0, sum by (app) (count_over_time({env=~".+"}[5m])))', params: { step: '300' } },
  { query: 'topk(1.5, sum by (app) (count_over_time({env=~".+"}[5m])))', params: { step: '300' } },
  { query: 'topk(100, sum by (app) (count_over_time({env=~".+"}[5m])))', params: { step: '300' } },
  {
    query: 'sort_desc(topk(2, sum by (pod) (count_over_time({env=~".+"}[5m]))))',
    path: '/loki/api/v1/query',
  },
  { query: 'absent_over_time({app="nope", pod=~"x.*", env="prod"}[5m])', params: { step: '300' } },
  {
    query: 'label_replace(sum by (app) (rate({env=~".+"}[5m])), "x", "$1", "app", "(")',
    params: { step: '300' },
  },
  {
    query: 'label_replace(sum by (app) (rate({env=~".+"}[5m])), "1x", "$1", "app", "(.*)")',
    params: { step: '300' },
  },
  {
    query: 'label_replace(sum by (app) (rate({env=~".+"}[5m])), "app", "", "app", ".*")',
    params: { step: '300' },
    known: MAP_ORDER,
  },
  { query: 'vector(1) and vector(1)' },
  { query: 'vector(1) unless vector(2)' },
  { query: '1 > 2' },
  { query: '1 > bool 2' },
  { query: '1 + 2 * 3 ^ 2 % 5' },
  { query: '-(1 + 2)' },
  { query: '0 / 0' },
  { query: '1 / 0 - 1' },
  { query: 'vector(1) == bool vector(1)' },
  {
    query:
      'sum(count_over_time({env=~".+"}[5m])) by (app) == on (app) sum(count_over_time({env=~".+"}[5m])) by (app)',
    params: { step: '300' },
  },
  {
    query:
      'sum by (app) (rate({env=~".+"}[5m])) > on (app) group_left (env) sum by (app, env) (rate({env=~".+"}[5m]))',
    params: { step: '300' },
    known: AMBIGUOUS_MATCH,
  },
  { query: 'count_over_time({app="checkout"}[5m])', params: { step: '1m' } },
  // Summed: per stream, 5,000 steps make an answer over Loki's 4 MB gRPC message limit, and
  // Loki 3.4 then never answers (its querier cannot hand the result to its frontend).
  { query: 'sum(count_over_time({app="checkout"}[5m]))', params: { step: '0.5' } },
  { query: 'count_over_time({app="checkout"}[5m])', params: { step: '7' } },
  { query: 'count_over_time({app="checkout"}[5m])', params: { step: 'abc' } },
  { query: '{app="checkout"}', params: { limit: 5, direction: 'FORWARD' } },
  { query: '{app="checkout"}', params: { limit: 5, direction: 'sideways' } },
  { query: '{app="checkout"}', params: { limit: 'x' } },
  { query: '{app="checkout"}', params: { limit: 5, start: '2026-11-28T00:00:00Z', end: 'now' } },
  { query: 'vector(1)', path: '/loki/api/v1/query', params: { time: '2026-01-01T00:00:00Z' } },
  { query: 'vector(1)', path: '/loki/api/v1/query', params: { time: '1767225600.5' } },
  { path: '/loki/api/v1/query_range', params: { start: '1', end: '2' } },
  { path: '/loki/api/v1/label/app/values', params: { query: '{env=~"pro.*"} |= "GET"' } },
  { path: '/loki/api/v1/label/app/values', params: { query: '{env=~"("}' } },
  { path: '/loki/api/v1/labels', params: { query: '{app="checkout", meta="yes"}' } },
  { path: '/loki/api/v1/series', params: { 'match[]': '{app="nope"}' } },
  { path: '/loki/api/v1/labels', params: { start: '2000000000', end: '1000000000' } },
  {
    path: '/loki/api/v1/series',
    params: { 'match[]': '{app="auth"}', start: '2000000000', end: '1000000000' },
  },
  { path: '/loki/api/v1/index/stats', params: { query: '{app="auth"}', step: 'abc' } },
  { path: '/loki/api/v1/index/volume', params: { query: '{app="auth"}', aggregateBy: 'x' } },
  // Series groups are parsed without the non-empty matcher rule; an empty group among others is not.
  { path: '/loki/api/v1/series', params: { 'match[]': '{app=~".*"}' } },
  { path: '/loki/api/v1/series', params: { 'match[]': '{pod!="x", meta=~".*"}' } },
  { path: '/loki/api/v1/series', params: { 'match[]': '{ }' } },
  { path: '/loki/api/v1/series', params: { 'match[]': '{}', match: '{app="checkout"}' } },
  { path: '/loki/api/v1/series', params: { 'match[]': '{app="auth"}', match: '{app="auth"}' } },
  { path: '/loki/api/v1/index/stats', params: { query: '{app="nope"}' } },
  { path: '/loki/api/v1/index/stats', params: { query: 'rate({app="checkout"}[5m])' } },
  // Range and step edges, offsets, empty and single-sample aggregations.
  { query: 'rate({app="checkout"}[10s])', params: { step: '10' } },
  { query: 'count_over_time({app="checkout"}[1s])', params: { step: '1' } },
  { query: 'count_over_time({app="checkout"}[5m] offset -5m)', params: { step: '300' } },
  { query: 'sum(count_over_time({app="checkout"}[5m])) offset -5m', params: { step: '300' } },
  { query: 'absent_over_time({app="checkout"}[5m] offset 30m)', params: { step: '300' } },
  {
    query: 'stdvar_over_time({env="prod", meta!="yes"} | json | unwrap status | __error__="" [1s])',
    params: { step: '60' },
  },
  {
    query: 'stddev(sum by (pod) (count_over_time({app="checkout"}[5m])))',
    params: { step: '300' },
  },
  {
    query: 'avg_over_time({env="prod", meta!="yes"} | json | unwrap nope | __error__="" [5m])',
    params: { step: '300' },
  },
  {
    query: 'sum without (pod, service_name) (count_over_time({env=~".+"}[5m]))',
    params: { step: '300' },
  },
  {
    query: 'topk(1, sum by (app, pod) (count_over_time({env=~".+"}[5m]))) without (pod)',
    params: { step: '300' },
    known: TIES,
  },
  {
    query:
      'max by (app) (count_over_time({env=~".+"}[5m])) > bool on (app) min by (app) (count_over_time({env=~".+"}[5m]))',
    params: { step: '300' },
  },
  {
    query:
      'last_over_time({env="prod", meta!="yes"} | json | unwrap latency_ms | __error__="" [5m] offset 5m) by (app)',
    params: { step: '300' },
  },
  {
    query: 'count_over_time({app="checkout"}[5m])',
    params: { step: '300', start: '1795897361', end: '1795897961' },
  },
  { query: 'sum(count_over_time({env=~".+"}[7m]))', params: { step: '301' } },
  {
    query: 'sum(count_over_time({env=~".+"}[5m]))',
    path: '/loki/api/v1/query',
    params: { time: '1' },
  },
  {
    query:
      'sum by (app) (rate({env=~".+"}[5m])) / on (app) group_right sum by (app) (rate({env=~".+"}[5m]))',
    params: { step: '300' },
  },
  { query: 'sum(count_over_time({env=~".+"}[5m])) / 3 > 2', params: { step: '300' } },
  { query: '3 - sum(count_over_time({env=~".+"}[5m]))', params: { step: '300' } },
  { query: 'sum(count_over_time({env=~".+"}[5m])) ^ 0.5', params: { step: '300' } },
  { query: 'sum(count_over_time({env=~".+"}[5m])) % 0', params: { step: '300' } },
  { query: 'count_over_time({env=~".+"} |~ "^$" [5m])', params: { step: '300' } },
  {
    query:
      'sum by (app) (count_over_time({env=~".+"} | logfmt | __error__="" | level="error" [5m]))',
    params: { step: '300' },
  },
  {
    query:
      'sum by (method) (count_over_time({env=~".+"} | pattern "<_> \\"<method> <_>" | __error__="" [5m]))',
    params: { step: '300' },
  },
  {
    query:
      'sum by (status) (count_over_time({env=~".+"} | regexp "\\" (?P<status>[0-9]{3}) " [5m]))',
    params: { step: '300' },
  },
  {
    query: 'sum by (app) (bytes_rate({env=~".+"} | line_format "{{.app}}" [5m]))',
    params: { step: '300' },
  },
  {
    query: 'sum by (app) (count_over_time({env=~".+"} | decolorize [5m]))',
    params: { step: '300' },
  },
  {
    query: '{app="checkout"} | line_format "{{ __line__ }}" |= "GET" | line_format "x"',
    params: { limit: 5 },
  },
  { query: '{app="checkout"} |= "GET" | line_format "{{ .pod }}" != "x"', params: { limit: 5 } },
  // More parameters.
  { query: '{app="checkout"}', params: { limit: 30, interval: '60' }, known: INTERVAL },
  { query: '{app="checkout"}', params: { limit: 30, step: '60' } },
  { query: '{app="checkout"}', params: { limit: 10, direction: 'forward', since: '15m' } },
  { query: 'count_over_time({app="checkout"}[5m])', params: { since: '10m', step: '60' } },
  {
    query: '{app="checkout"} |= "GET"',
    path: '/loki/api/v1/query',
    params: { limit: 3, direction: 'forward' },
  },
  {
    query: 'topk(2, count_over_time({env=~".+"}[5m]))',
    path: '/loki/api/v1/query',
    params: { limit: 1 },
  },
  {
    path: '/loki/api/v1/index/volume_range',
    params: { query: '{env=~".+"}', step: '600', aggregateBy: 'labels' },
    known: VOLUME,
  },
  { path: '/loki/api/v1/patterns', params: { query: '{app="checkout"}' } },
  { path: '/loki/api/v1/query_range', params: { query: '{app="checkout"}', end: '1', start: '2' } },
  { path: '/loki/api/v1/query', params: { query: 'vector(1)', time: 'abc' } },
  { path: '/loki/api/v1/nope' },
];
