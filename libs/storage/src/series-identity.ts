import { createHash } from 'node:crypto';
import { crc32 } from '@node-rs/crc32';
import { labelsToString, type Labels } from '@logsvc/api';

/** 64-bit series fingerprint as 16 hex digits: the first 8 bytes of SHA-256 of the label text. */
export function seriesFingerprint(labels: Labels): string {
  return createHash('sha256').update(labelsToString(labels)).digest('hex').slice(0, 16);
}

/** CRC-32 (IEEE) of a chunk's bytes, as stored in its key and index ref. */
export function chunkChecksum(data: Buffer): number {
  return crc32(data) >>> 0;
}
