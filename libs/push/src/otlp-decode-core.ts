import type { PushRequest } from '@logsvc/api';
import { badRequest } from './errors';
import { otlpToPushRequest } from './otlp-map';
import { decodeOtlpJson } from './otlp-json';
import { decodeOtlpProtobuf } from './otlp-proto';

export type OtlpMediaType = 'application/x-protobuf' | 'application/json';

/** What decoding an (already decompressed) OTLP export needs besides the body. */
export interface OtlpDecodeParams {
  readonly type: OtlpMediaType;
  readonly discoverServiceName: readonly string[];
  readonly nowNs: bigint;
}

/** The content type of an OTLP/HTTP export, or a 400 for any other. */
export function otlpMediaType(contentType: string | null | undefined): OtlpMediaType {
  const type = (contentType ?? '').trim();
  if (type !== 'application/x-protobuf' && type !== 'application/json') {
    throw badRequest(`content type: ${contentType ?? ''} is not supported`);
  }
  return type;
}

/** Decodes an uncompressed OTLP export and maps it to streams the way Loki does. */
export function decodeOtlpExport(body: Buffer, p: OtlpDecodeParams): PushRequest {
  const req = p.type === 'application/json' ? decodeOtlpJson(body) : decodeOtlpProtobuf(body);
  return otlpToPushRequest(req, { discover_service_name: p.discoverServiceName, nowNs: p.nowNs });
}
