import { describe, expect, it } from 'vitest';
import { nodeSeries } from './node-metrics';
import { parsePromText } from './prom-text';

const scrape = (at: number, lines: string[]) => ({ at, samples: parsePromText(lines.join('\n')) });

describe('nodeSeries', () => {
  it('computes rates between reads, mean query latency, and leaves out absent metrics', () => {
    const series = nodeSeries([
      scrape(0, [
        'loki_distributor_lines_received_total{tenant="a"} 100',
        'logsvc_request_duration_seconds_sum{route="loki_api_v1_query_range"} 2',
        'logsvc_request_duration_seconds_count{route="loki_api_v1_query_range"} 4',
        'logsvc_request_duration_seconds_sum{route="loki_api_v1_push"} 50',
        'logsvc_request_duration_seconds_count{route="loki_api_v1_push"} 9',
      ]),
      scrape(5000, [
        'loki_distributor_lines_received_total{tenant="a"} 150',
        'logsvc_request_duration_seconds_sum{route="loki_api_v1_query_range"} 3.5',
        'logsvc_request_duration_seconds_count{route="loki_api_v1_query_range"} 7',
        'logsvc_request_duration_seconds_sum{route="loki_api_v1_push"} 90',
        'logsvc_request_duration_seconds_count{route="loki_api_v1_push"} 10',
      ]),
    ]);
    expect(series.map((s) => [s.metric.key, s.values])).toEqual([
      ['ingest', [null, 10]],
      ['latency', [null, 0.5]],
    ]);
    expect(series[0]!.times).toEqual([0, 5]);
  });
});
