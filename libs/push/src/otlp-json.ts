import { badRequest } from './errors';
import type {
  OtlpAnyValue,
  OtlpKeyValue,
  OtlpLogRecord,
  OtlpLogsRequest,
  OtlpScopeLogs,
} from './otlp-schema';

type Obj = Record<string, unknown>;

const SEVERITY_NAMES = [
  'UNSPECIFIED',
  'TRACE',
  'TRACE2',
  'TRACE3',
  'TRACE4',
  'DEBUG',
  'DEBUG2',
  'DEBUG3',
  'DEBUG4',
  'INFO',
  'INFO2',
  'INFO3',
  'INFO4',
  'WARN',
  'WARN2',
  'WARN3',
  'WARN4',
  'ERROR',
  'ERROR2',
  'ERROR3',
  'ERROR4',
  'FATAL',
  'FATAL2',
  'FATAL3',
  'FATAL4',
];

class OtlpJsonError extends Error {}

/**
 * Decodes the OTLP/HTTP JSON encoding: lowerCamelCase keys (snake_case also accepted, as the
 * protobuf JSON mapping allows), int64 as strings or numbers, trace and span ids as hex.
 */
export function decodeOtlpJson(body: Buffer): OtlpLogsRequest {
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw badRequest(`invalid OTLP JSON body: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    const root = obj(doc, 'request');
    return { resourceLogs: list(root, 'resourceLogs', 'resource_logs').map(resourceLogs) };
  } catch (err) {
    if (err instanceof OtlpJsonError) throw badRequest(`invalid OTLP JSON body: ${err.message}`);
    throw err;
  }
}

function obj(v: unknown, what: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new OtlpJsonError(`${what} must be an object`);
  return v as Obj;
}

function field(o: Obj, camel: string, snake: string): unknown {
  return o[camel] !== undefined ? o[camel] : o[snake];
}

function list(o: Obj, camel: string, snake: string): Obj[] {
  const v = field(o, camel, snake);
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new OtlpJsonError(`${camel} must be an array`);
  return v.map((x) => obj(x, camel + '[]'));
}

function str(o: Obj, camel: string, snake = camel): string {
  const v = field(o, camel, snake);
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new OtlpJsonError(`${camel} must be a string`);
  // Lone UTF-16 surrogates (`"\udc00"`) become U+FFFD here, as they would once stored as UTF-8.
  return v.toWellFormed();
}

function int64(o: Obj, camel: string, snake: string): bigint {
  const v = field(o, camel, snake);
  if (v === undefined || v === null || v === '') return 0n;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
  throw new OtlpJsonError(`${camel} must be an integer or a string of digits`);
}

function uint32(o: Obj, camel: string, snake: string): number {
  const n = int64(o, camel, snake);
  if (n < 0n || n > 0xffffffffn) throw new OtlpJsonError(`${camel} out of range`);
  return Number(n);
}

function hexId(o: Obj, camel: string, snake: string): Uint8Array {
  const v = str(o, camel, snake);
  if (v === '') return new Uint8Array(0);
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(v)) throw new OtlpJsonError(`${camel} must be a hex string`);
  return Buffer.from(v, 'hex');
}

function severity(o: Obj): number {
  const v = field(o, 'severityNumber', 'severity_number');
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string') {
    const i = SEVERITY_NAMES.indexOf(v.replace(/^SEVERITY_NUMBER_/, ''));
    if (i >= 0) return i;
    if (/^\d+$/.test(v)) return Number(v);
  }
  throw new OtlpJsonError('severityNumber must be an integer or a SEVERITY_NUMBER_* name');
}

function resourceLogs(rl: Obj) {
  const resource =
    rl.resource === undefined || rl.resource === null ? {} : obj(rl.resource, 'resource');
  return {
    resource: { attributes: keyValues(resource) },
    scopeLogs: list(rl, 'scopeLogs', 'scope_logs').map(scopeLogs),
  };
}

function scopeLogs(sl: Obj): OtlpScopeLogs {
  const scope = sl.scope === undefined || sl.scope === null ? {} : obj(sl.scope, 'scope');
  return {
    scope: {
      name: str(scope, 'name'),
      version: str(scope, 'version'),
      attributes: keyValues(scope),
      droppedAttributesCount: uint32(scope, 'droppedAttributesCount', 'dropped_attributes_count'),
    },
    logRecords: list(sl, 'logRecords', 'log_records').map(logRecord),
  };
}

function logRecord(r: Obj): OtlpLogRecord {
  return {
    timeUnixNano: int64(r, 'timeUnixNano', 'time_unix_nano'),
    observedTimeUnixNano: int64(r, 'observedTimeUnixNano', 'observed_time_unix_nano'),
    severityNumber: severity(r),
    severityText: str(r, 'severityText', 'severity_text'),
    body:
      r.body === undefined || r.body === null ? { kind: 'empty' } : anyValue(obj(r.body, 'body')),
    attributes: keyValues(r),
    droppedAttributesCount: uint32(r, 'droppedAttributesCount', 'dropped_attributes_count'),
    flags: uint32(r, 'flags', 'flags'),
    traceId: hexId(r, 'traceId', 'trace_id'),
    spanId: hexId(r, 'spanId', 'span_id'),
  };
}

/**
 * Arrays and maps nested in one attribute or body: as deep as the protobuf decoder goes (its
 * limit of 100 messages leaves 48 such levels below a log record), so both encodings refuse
 * the same bodies, and far from the call stack's end.
 */
const MAX_VALUE_NESTING = 48;

function keyValues(o: Obj, camel = 'attributes', depth = 0): OtlpKeyValue[] {
  return list(o, camel, camel).map((kv) => ({
    key: str(kv, 'key'),
    value:
      kv.value === undefined || kv.value === null
        ? { kind: 'empty' }
        : anyValue(obj(kv.value, 'value'), depth),
  }));
}

function anyValue(v: Obj, depth = 0): OtlpAnyValue {
  if (depth > MAX_VALUE_NESTING) throw new OtlpJsonError('maximum nesting depth exceeded');
  const s = field(v, 'stringValue', 'string_value');
  if (s !== undefined) {
    if (typeof s !== 'string') throw new OtlpJsonError('stringValue must be a string');
    return { kind: 'string', value: s.toWellFormed() };
  }
  const b = field(v, 'boolValue', 'bool_value');
  if (b !== undefined) {
    if (typeof b !== 'boolean') throw new OtlpJsonError('boolValue must be a boolean');
    return { kind: 'bool', value: b };
  }
  if (field(v, 'intValue', 'int_value') !== undefined)
    return { kind: 'int', value: int64(v, 'intValue', 'int_value') };
  const d = field(v, 'doubleValue', 'double_value');
  if (d !== undefined) {
    if (typeof d === 'number') return { kind: 'double', value: d };
    if (d === 'NaN' || d === 'Infinity' || d === '-Infinity')
      return { kind: 'double', value: Number(d) };
    throw new OtlpJsonError('doubleValue must be a number');
  }
  const bytes = field(v, 'bytesValue', 'bytes_value');
  if (bytes !== undefined) {
    if (typeof bytes !== 'string') throw new OtlpJsonError('bytesValue must be a base64 string');
    return { kind: 'bytes', value: Buffer.from(bytes, 'base64') };
  }
  const array = field(v, 'arrayValue', 'array_value');
  if (array !== undefined) {
    return {
      kind: 'array',
      value: list(obj(array, 'arrayValue'), 'values', 'values').map((x) => anyValue(x, depth + 1)),
    };
  }
  const kvlist = field(v, 'kvlistValue', 'kvlist_value');
  if (kvlist !== undefined)
    return { kind: 'kvlist', value: keyValues(obj(kvlist, 'kvlistValue'), 'values', depth + 1) };
  return { kind: 'empty' };
}
