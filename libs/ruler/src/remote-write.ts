// Prometheus remote write (v1): a snappy-compressed prometheus.WriteRequest per push, per
// tenant (X-Scope-OrgID when `add_org_id_header`), to every configured client.
import protobuf from 'protobufjs';
import snappy from 'snappy';
import type { RulerMetrics } from './metrics';
import type { RecordedSeries } from './recording-rule';

const root = protobuf.Root.fromJSON({
  nested: {
    prometheus: {
      nested: {
        WriteRequest: { fields: { timeseries: { rule: 'repeated', type: 'TimeSeries', id: 1 } } },
        TimeSeries: {
          fields: {
            labels: { rule: 'repeated', type: 'Label', id: 1 },
            samples: { rule: 'repeated', type: 'Sample', id: 2 },
          },
        },
        Label: { fields: { name: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } } },
        Sample: {
          fields: { value: { type: 'double', id: 1 }, timestamp: { type: 'int64', id: 2 } },
        },
      },
    },
  },
});
const WriteRequest = root.lookupType('prometheus.WriteRequest');

export function encodeWriteRequest(series: readonly RecordedSeries[]): Buffer {
  const msg = WriteRequest.fromObject({
    timeseries: series.map((s) => ({
      labels: Object.keys(s.labels)
        .sort()
        .map((name) => ({ name, value: s.labels[name] })),
      samples: [{ value: s.value, timestamp: s.timestampMs }],
    })),
  });
  return Buffer.from(WriteRequest.encode(msg).finish());
}

export function decodeWriteRequest(body: Buffer): unknown {
  return WriteRequest.toObject(WriteRequest.decode(body), { longs: Number });
}

export interface RemoteWriteClientConfig {
  readonly name: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

export interface RemoteWriterOptions {
  readonly clients: readonly RemoteWriteClientConfig[];
  readonly addOrgIdHeader: boolean;
  readonly metrics: RulerMetrics;
  readonly fetch?: typeof fetch;
  readonly onError?: (message: string) => void;
}

export class RemoteWriter {
  private readonly fetchFn: typeof fetch;

  constructor(private readonly options: RemoteWriterOptions) {
    this.fetchFn = options.fetch ?? fetch;
  }

  get enabled(): boolean {
    return this.options.clients.length > 0;
  }

  async write(tenant: string, series: readonly RecordedSeries[]): Promise<void> {
    if (!this.enabled || series.length === 0) return;
    const body = await snappy.compress(encodeWriteRequest(series));
    await Promise.all(
      this.options.clients.map(async (c) => {
        try {
          const headers: Record<string, string> = {
            ...c.headers,
            'Content-Encoding': 'snappy',
            'Content-Type': 'application/x-protobuf',
            'User-Agent': 'logsvc-ruler',
            'X-Prometheus-Remote-Write-Version': '0.1.0',
          };
          delete headers['X-Scope-OrgID'];
          if (this.options.addOrgIdHeader) headers['X-Scope-OrgID'] = tenant;
          const res = await this.fetchFn(c.url, {
            method: 'POST',
            headers,
            body,
            signal: AbortSignal.timeout(c.timeoutMs),
          });
          const text = await res.text();
          if (Math.floor(res.status / 100) !== 2) {
            throw new Error(`server returned HTTP status ${res.status}: ${text.trim()}`);
          }
          this.options.metrics.remoteWrite(tenant, series.length, false);
        } catch (err) {
          this.options.metrics.remoteWrite(tenant, series.length, true);
          this.options.onError?.(
            `remote write to ${c.name} failed: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
      }),
    );
  }
}
