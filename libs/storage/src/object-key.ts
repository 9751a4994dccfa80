import { RESERVED_NAME_SUFFIX } from '@logsvc/api';
import { InvalidObjectKeyError } from './errors';

export const MAX_OBJECT_KEY_BYTES = 1024;
const MAX_SEGMENT_BYTES = 255;

/** Suffix of in-flight temporary files; keys may not use it, so temp files never list. */
export const TEMP_FILE_SUFFIX = RESERVED_NAME_SUFFIX;

/**
 * Throws InvalidObjectKeyError unless `key` is a relative '/'-separated path whose segments
 * cannot climb out of the store's root on any platform: no empty, '.' or '..' segment, no
 * leading '/', no backslash or NUL, bounded lengths.
 */
export function assertSafeObjectKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0)
    throw new InvalidObjectKeyError(key, 'empty key');
  if (Buffer.byteLength(key, 'utf8') > MAX_OBJECT_KEY_BYTES) {
    throw new InvalidObjectKeyError(key, `longer than ${MAX_OBJECT_KEY_BYTES} bytes`);
  }
  if (key.includes('\0')) throw new InvalidObjectKeyError(key, 'contains NUL');
  if (key.includes('\\')) throw new InvalidObjectKeyError(key, 'contains a backslash');
  if (key.startsWith('/')) throw new InvalidObjectKeyError(key, 'absolute path');
  for (const segment of key.split('/')) assertSafeSegment(key, segment);
}

function assertSafeSegment(key: string, segment: string): void {
  if (segment.length === 0) throw new InvalidObjectKeyError(key, 'empty path segment');
  if (segment === '.' || segment === '..') {
    throw new InvalidObjectKeyError(key, `path segment ${JSON.stringify(segment)}`);
  }
  if (Buffer.byteLength(segment, 'utf8') > MAX_SEGMENT_BYTES) {
    throw new InvalidObjectKeyError(key, `path segment longer than ${MAX_SEGMENT_BYTES} bytes`);
  }
  if (segment.endsWith(TEMP_FILE_SUFFIX)) {
    throw new InvalidObjectKeyError(key, `segments may not end with ${TEMP_FILE_SUFFIX}`);
  }
}

/**
 * A listing prefix may end in the middle of a segment ('t/chunks/ab'), but its complete
 * segments must be safe, and it may not be absolute.
 */
export function assertSafePrefix(prefix: string): void {
  if (prefix === '') return;
  if (prefix.includes('\0') || prefix.includes('\\') || prefix.startsWith('/')) {
    throw new InvalidObjectKeyError(prefix, 'unsafe listing prefix');
  }
  const segments = prefix.split('/');
  segments.pop(); // the partial (or empty) last segment only filters names
  for (const segment of segments) assertSafeSegment(prefix, segment);
}
