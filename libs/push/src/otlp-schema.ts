import * as protobuf from 'protobufjs';

/**
 * The OTLP logs schema (opentelemetry/proto collector/logs/v1 and its imports), limited to the
 * fields logsvc reads. Field numbers match the upstream .proto files.
 */
const OTLP_LOGS_SCHEMA = {
  nested: {
    otlp: {
      nested: {
        ExportLogsServiceRequest: {
          fields: { resourceLogs: { rule: 'repeated', type: 'ResourceLogs', id: 1 } },
        },
        ResourceLogs: {
          fields: {
            resource: { type: 'Resource', id: 1 },
            scopeLogs: { rule: 'repeated', type: 'ScopeLogs', id: 2 },
            schemaUrl: { type: 'string', id: 3 },
          },
        },
        Resource: {
          fields: {
            attributes: { rule: 'repeated', type: 'KeyValue', id: 1 },
            droppedAttributesCount: { type: 'uint32', id: 2 },
          },
        },
        ScopeLogs: {
          fields: {
            scope: { type: 'InstrumentationScope', id: 1 },
            logRecords: { rule: 'repeated', type: 'LogRecord', id: 2 },
            schemaUrl: { type: 'string', id: 3 },
          },
        },
        InstrumentationScope: {
          fields: {
            name: { type: 'string', id: 1 },
            version: { type: 'string', id: 2 },
            attributes: { rule: 'repeated', type: 'KeyValue', id: 3 },
            droppedAttributesCount: { type: 'uint32', id: 4 },
          },
        },
        LogRecord: {
          fields: {
            timeUnixNano: { type: 'fixed64', id: 1 },
            observedTimeUnixNano: { type: 'fixed64', id: 11 },
            severityNumber: { type: 'int32', id: 2 },
            severityText: { type: 'string', id: 3 },
            body: { type: 'AnyValue', id: 5 },
            attributes: { rule: 'repeated', type: 'KeyValue', id: 6 },
            droppedAttributesCount: { type: 'uint32', id: 7 },
            flags: { type: 'fixed32', id: 8 },
            traceId: { type: 'bytes', id: 9 },
            spanId: { type: 'bytes', id: 10 },
            eventName: { type: 'string', id: 12 },
          },
        },
        AnyValue: {
          oneofs: {
            value: {
              oneof: [
                'stringValue',
                'boolValue',
                'intValue',
                'doubleValue',
                'arrayValue',
                'kvlistValue',
                'bytesValue',
              ],
            },
          },
          fields: {
            stringValue: { type: 'string', id: 1 },
            boolValue: { type: 'bool', id: 2 },
            intValue: { type: 'int64', id: 3 },
            doubleValue: { type: 'double', id: 4 },
            arrayValue: { type: 'ArrayValue', id: 5 },
            kvlistValue: { type: 'KeyValueList', id: 6 },
            bytesValue: { type: 'bytes', id: 7 },
          },
        },
        ArrayValue: { fields: { values: { rule: 'repeated', type: 'AnyValue', id: 1 } } },
        KeyValueList: { fields: { values: { rule: 'repeated', type: 'KeyValue', id: 1 } } },
        KeyValue: {
          fields: { key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } },
        },
      },
    },
  },
};

const root = protobuf.Root.fromJSON(OTLP_LOGS_SCHEMA);

export const ExportLogsServiceRequestType = root.lookupType('otlp.ExportLogsServiceRequest');

/**
 * The decoded OTLP model both the protobuf and the JSON decoders produce. int64 values are
 * bigint; ids are raw bytes.
 */
export type OtlpAnyValue =
  | { kind: 'string'; value: string }
  | { kind: 'bool'; value: boolean }
  | { kind: 'int'; value: bigint }
  | { kind: 'double'; value: number }
  | { kind: 'bytes'; value: Uint8Array }
  | { kind: 'array'; value: OtlpAnyValue[] }
  | { kind: 'kvlist'; value: OtlpKeyValue[] }
  | { kind: 'empty' };

export interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}

export interface OtlpLogRecord {
  timeUnixNano: bigint;
  observedTimeUnixNano: bigint;
  severityNumber: number;
  severityText: string;
  body: OtlpAnyValue;
  attributes: OtlpKeyValue[];
  droppedAttributesCount: number;
  flags: number;
  traceId: Uint8Array;
  spanId: Uint8Array;
}

export interface OtlpScopeLogs {
  scope: {
    name: string;
    version: string;
    attributes: OtlpKeyValue[];
    droppedAttributesCount: number;
  };
  logRecords: OtlpLogRecord[];
}

export interface OtlpResourceLogs {
  resource: { attributes: OtlpKeyValue[] };
  scopeLogs: OtlpScopeLogs[];
}

export interface OtlpLogsRequest {
  resourceLogs: OtlpResourceLogs[];
}
