import { type Config, resolveRingConfig } from '@logsvc/config';

/**
 * Whether this process's components find their peers through a shared ring (etcd) rather than
 * only in this process. Without it the single binary calls its own ingester directly.
 */
export function sharesRing(config: Config): boolean {
  return resolveRingConfig(config, 'ingester').kvstore.store !== 'inmemory';
}
