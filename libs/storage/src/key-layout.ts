/**
 * Object key layout (see docs/storage.md). Every function here takes a tenant that the caller
 * has already passed through assertSafeTenant; the tenant is always the first key segment.
 */
import { randomBytes } from 'node:crypto';

const UPLOADER_CHARS = /^[A-Za-z0-9_.-]{1,100}$/;

/** `<tenant>/chunks/<fingerprint>/<fromNs hex>-<throughNs hex>-<crc32 hex>` */
export function chunkKey(
  tenant: string,
  fingerprint: string,
  fromNs: bigint,
  throughNs: bigint,
  checksum: number,
): string {
  const crc = checksum.toString(16).padStart(8, '0');
  return `${tenant}/chunks/${fingerprint}/${fromNs.toString(16)}-${throughNs.toString(16)}-${crc}`;
}

export function chunksPrefix(tenant: string): string {
  return `${tenant}/chunks/`;
}

/** `<tenant>/index/` */
export function indexPrefix(tenant: string): string {
  return `${tenant}/index/`;
}

/** `<tenant>/index/<table>/` */
export function indexTablePrefix(tenant: string, table: string): string {
  return `${tenant}/index/${table}/`;
}

/** `<tenant>/index/<table>/<uploader>-<unix ms>-<random>.idx`: unique per write, never rewritten. */
export function indexFileKey(
  tenant: string,
  table: string,
  uploader: string,
  nowMs: number,
): string {
  return `${indexTablePrefix(tenant, table)}${uploader}-${nowMs}-${randomBytes(6).toString('hex')}.idx`;
}

export function isIndexFileKey(key: string): boolean {
  return key.endsWith('.idx');
}

/** A usable uploader name: the given one if safe, else a sanitized form of it. */
export function sanitizeUploader(name: string): string {
  if (UPLOADER_CHARS.test(name)) return name;
  const cleaned = name
    .replace(/[^A-Za-z0-9_.-]/g, '_')
    .slice(0, 100)
    .replace(/^\.+$/, '_');
  return cleaned.length > 0 ? cleaned : 'logsvc';
}
