import { badRequest } from './errors';
import {
  ExportLogsServiceRequestType,
  type OtlpAnyValue,
  type OtlpKeyValue,
  type OtlpLogRecord,
  type OtlpLogsRequest,
} from './otlp-schema';

type Obj = Record<string, unknown>;
const EMPTY_BYTES = new Uint8Array(0);

/** Decodes an OTLP/HTTP protobuf ExportLogsServiceRequest into the OTLP model. */
export function decodeOtlpProtobuf(body: Uint8Array): OtlpLogsRequest {
  let obj: Obj;
  try {
    const msg = ExportLogsServiceRequestType.decode(body);
    obj = ExportLogsServiceRequestType.toObject(msg, {
      longs: String,
      oneofs: false,
      defaults: false,
    }) as Obj;
  } catch (err) {
    throw badRequest(
      `error decoding OTLP logs request: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  return {
    resourceLogs: arr(obj.resourceLogs).map((rl) => ({
      resource: { attributes: keyValues((rl.resource as Obj | undefined)?.attributes) },
      scopeLogs: arr(rl.scopeLogs).map((sl) => {
        const scope = (sl.scope ?? {}) as Obj;
        return {
          scope: {
            name: (scope.name as string | undefined) ?? '',
            version: (scope.version as string | undefined) ?? '',
            attributes: keyValues(scope.attributes),
            droppedAttributesCount: (scope.droppedAttributesCount as number | undefined) ?? 0,
          },
          logRecords: arr(sl.logRecords).map(logRecord),
        };
      }),
    })),
  };
}

function arr(v: unknown): Obj[] {
  return Array.isArray(v) ? (v as Obj[]) : [];
}

function big(v: unknown): bigint {
  return typeof v === 'string' || typeof v === 'number' ? BigInt(v) : 0n;
}

function logRecord(r: Obj): OtlpLogRecord {
  return {
    timeUnixNano: big(r.timeUnixNano),
    observedTimeUnixNano: big(r.observedTimeUnixNano),
    severityNumber: (r.severityNumber as number | undefined) ?? 0,
    severityText: (r.severityText as string | undefined) ?? '',
    body: anyValue(r.body as Obj | undefined),
    attributes: keyValues(r.attributes),
    droppedAttributesCount: (r.droppedAttributesCount as number | undefined) ?? 0,
    flags: (r.flags as number | undefined) ?? 0,
    traceId: (r.traceId as Uint8Array | undefined) ?? EMPTY_BYTES,
    spanId: (r.spanId as Uint8Array | undefined) ?? EMPTY_BYTES,
  };
}

function keyValues(v: unknown): OtlpKeyValue[] {
  return arr(v).map((kv) => ({
    key: (kv.key as string | undefined) ?? '',
    value: anyValue(kv.value as Obj | undefined),
  }));
}

function anyValue(v: Obj | undefined): OtlpAnyValue {
  if (v === undefined) return { kind: 'empty' };
  if (v.stringValue !== undefined) return { kind: 'string', value: v.stringValue as string };
  if (v.boolValue !== undefined) return { kind: 'bool', value: v.boolValue as boolean };
  if (v.intValue !== undefined) return { kind: 'int', value: big(v.intValue) };
  if (v.doubleValue !== undefined) return { kind: 'double', value: v.doubleValue as number };
  if (v.bytesValue !== undefined) return { kind: 'bytes', value: v.bytesValue as Uint8Array };
  if (v.arrayValue !== undefined) {
    return { kind: 'array', value: arr((v.arrayValue as Obj).values).map((x) => anyValue(x)) };
  }
  if (v.kvlistValue !== undefined)
    return { kind: 'kvlist', value: keyValues((v.kvlistValue as Obj).values) };
  return { kind: 'empty' };
}
