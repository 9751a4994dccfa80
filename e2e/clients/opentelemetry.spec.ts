import { SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPLogExporter as OtlpHttpJsonExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as OtlpProtoExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { describe, expect, it } from 'vitest';
import { type ResultStream, nowNs, queryRange } from '../support/loki-api';
import { eventually, serverForAll } from '../support/server';

// The OpenTelemetry JS SDK exporting to logsvc's OTLP endpoint, as it would to Loki's:
// resource attributes on the default list become index labels (service.name → service_name),
// everything else becomes structured metadata.
describe('OpenTelemetry SDK → /otlp/v1/logs', () => {
  const server = serverForAll();

  async function exportWith(exporter: OtlpProtoExporter | OtlpHttpJsonExporter, service: string) {
    const provider = new LoggerProvider({
      resource: resourceFromAttributes({
        'service.name': service,
        'deployment.environment': 'e2e',
        'host.name': 'node-1',
      }),
      processors: [new BatchLogRecordProcessor({ exporter, scheduledDelayMillis: 50 })],
    });
    const logger = provider.getLogger('checkout-scope', '1.2.3');
    logger.emit({
      severityNumber: SeverityNumber.ERROR,
      severityText: 'ERROR',
      body: 'card declined',
      attributes: { 'order.id': 'o-17', retries: 3 },
    });
    logger.emit({ severityNumber: SeverityNumber.INFO, severityText: 'INFO', body: 'order paid' });
    await provider.forceFlush();
    await provider.shutdown();
  }

  async function read(service: string): Promise<ResultStream[]> {
    return eventually(async () => {
      const streams = await queryRange(server().url, {
        query: `{service_name="${service}"}`,
        start: nowNs() - 3_600_000_000_000n,
        end: nowNs() + 60_000_000_000n,
        limit: 100,
        direction: 'forward',
        categorizeLabels: true,
      });
      return streams.reduce((n, s) => n + s.entries.length, 0) >= 2 ? streams : undefined;
    }, `2 entries of ${service}`);
  }

  function assertExported(streams: ResultStream[], service: string) {
    expect(streams).toHaveLength(1);
    expect(streams[0].stream).toEqual({ deployment_environment: 'e2e', service_name: service });
    const [declined, paid] = streams[0].entries;
    expect(declined.line).toBe('card declined');
    expect(declined.structuredMetadata).toMatchObject({
      host_name: 'node-1',
      order_id: 'o-17',
      retries: '3',
      severity_text: 'ERROR',
      severity_number: '17',
      scope_name: 'checkout-scope',
      scope_version: '1.2.3',
      detected_level: 'error',
    });
    expect(paid.line).toBe('order paid');
    expect(paid.structuredMetadata).toMatchObject({
      severity_text: 'INFO',
      detected_level: 'info',
    });
    expect(paid.structuredMetadata).not.toHaveProperty('order_id');
  }

  it('accepts the protobuf exporter (exporter-logs-otlp-proto)', async () => {
    await exportWith(
      new OtlpProtoExporter({ url: `${server().url}/otlp/v1/logs` }),
      'checkout-proto',
    );
    assertExported(await read('checkout-proto'), 'checkout-proto');
  });

  it('accepts the JSON exporter (exporter-logs-otlp-http)', async () => {
    await exportWith(
      new OtlpHttpJsonExporter({ url: `${server().url}/otlp/v1/logs` }),
      'checkout-json',
    );
    assertExported(await read('checkout-json'), 'checkout-json');
  });
});
