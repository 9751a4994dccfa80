// Actions on one instance through the server's per-instance proxy.
import { INSTANCE_PROXY_PREFIX } from '@logsvc/api/browser';

export function instancePath(id: string, path: string): string {
  return `${INSTANCE_PROXY_PREFIX}/${encodeURIComponent(id)}${path}`;
}
