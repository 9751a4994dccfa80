/**
 * The body of an OTLP/HTTP error: a protobuf `google.rpc.Status` with only `message` (field 2)
 * set, as Loki sends it (code 0 is omitted, see the OTLP spec's "Failures").
 */
export function encodeOtlpStatus(message: string): Buffer {
  const text = Buffer.from(message, 'utf8');
  const header: number[] = [0x12]; // field 2, wire type 2 (length-delimited)
  let n = text.length;
  while (n >= 0x80) {
    header.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  header.push(n);
  return Buffer.concat([Buffer.from(header), text]);
}

/** OTLP clients retry 503 but not 500, so Loki answers server errors with 503. */
export function otlpStatusCode(status: number): number {
  return status === 500 ? 503 : status;
}
