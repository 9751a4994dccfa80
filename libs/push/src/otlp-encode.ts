import {
  ExportLogsServiceRequestType,
  type OtlpAnyValue,
  type OtlpKeyValue,
  type OtlpLogsRequest,
} from './otlp-schema';

type Obj = Record<string, unknown>;

function anyValueObject(v: OtlpAnyValue): Obj {
  switch (v.kind) {
    case 'string':
      return { stringValue: v.value };
    case 'bool':
      return { boolValue: v.value };
    case 'int':
      return { intValue: v.value.toString() };
    case 'double':
      return { doubleValue: v.value };
    case 'bytes':
      return { bytesValue: v.value };
    case 'array':
      return { arrayValue: { values: v.value.map(anyValueObject) } };
    case 'kvlist':
      return { kvlistValue: { values: keyValuesObject(v.value) } };
    case 'empty':
      return {};
  }
}

function keyValuesObject(kvs: OtlpKeyValue[]): Obj[] {
  return kvs.map((kv) => ({ key: kv.key, value: anyValueObject(kv.value) }));
}

function requestObject(req: OtlpLogsRequest, json: boolean): Obj {
  const id = (b: Uint8Array) => (json ? Buffer.from(b).toString('hex') : b);
  const int64 = (n: bigint) => n.toString();
  const value = (v: OtlpAnyValue) => {
    const o = anyValueObject(v);
    return json ? jsonValue(o) : o;
  };
  const kvs = (list: OtlpKeyValue[]) => list.map((kv) => ({ key: kv.key, value: value(kv.value) }));
  return {
    resourceLogs: req.resourceLogs.map((rl) => ({
      resource: { attributes: kvs(rl.resource.attributes) },
      scopeLogs: rl.scopeLogs.map((sl) => ({
        scope: {
          name: sl.scope.name,
          version: sl.scope.version,
          attributes: kvs(sl.scope.attributes),
          droppedAttributesCount: sl.scope.droppedAttributesCount,
        },
        logRecords: sl.logRecords.map((r) => ({
          timeUnixNano: int64(r.timeUnixNano),
          observedTimeUnixNano: int64(r.observedTimeUnixNano),
          severityNumber: r.severityNumber,
          severityText: r.severityText,
          body: value(r.body),
          attributes: kvs(r.attributes),
          droppedAttributesCount: r.droppedAttributesCount,
          flags: r.flags,
          traceId: id(r.traceId),
          spanId: id(r.spanId),
        })),
      })),
    })),
  };
}

/** OTLP JSON encodes bytes as base64 and nested values recursively. */
function jsonValue(o: Obj): Obj {
  if (o.bytesValue instanceof Uint8Array)
    return { bytesValue: Buffer.from(o.bytesValue).toString('base64') };
  if (o.arrayValue)
    return { arrayValue: { values: ((o.arrayValue as Obj).values as Obj[]).map(jsonValue) } };
  if (o.kvlistValue) {
    const values = (o.kvlistValue as Obj).values as { key: string; value: Obj }[];
    return {
      kvlistValue: { values: values.map((kv) => ({ key: kv.key, value: jsonValue(kv.value) })) },
    };
  }
  return o;
}

/** Encodes an OTLP/HTTP protobuf ExportLogsServiceRequest (used by tests and tools). */
export function encodeOtlpProtobuf(req: OtlpLogsRequest): Buffer {
  const msg = ExportLogsServiceRequestType.fromObject(requestObject(req, false));
  const out = ExportLogsServiceRequestType.encode(msg).finish();
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

/** Encodes the OTLP/HTTP JSON form: camelCase keys, int64 as strings, ids as hex. */
export function encodeOtlpJson(req: OtlpLogsRequest): Buffer {
  return Buffer.from(JSON.stringify(requestObject(req, true)), 'utf8');
}
