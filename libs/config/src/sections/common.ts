import { z } from 'zod';
import { duration, int, oneOf, section, str, stringList, flag } from '../fields';

/** `common.ring.kvstore`: where ring state lives (memory in one process, etcd in a cluster). */
const kvstore = section({
  store: flag('common.storage.ring.store', oneOf(['inmemory', 'etcd'], 'inmemory')),
  prefix: flag('common.storage.ring.prefix', str('collectors/')),
  etcd: section({
    endpoints: flag('common.storage.ring.etcd.endpoints', stringList([])),
    dial_timeout: flag('common.storage.ring.etcd.dial-timeout', duration(10_000)),
    max_retries: flag('common.storage.ring.etcd.max-retries', int(10)),
    username: flag('common.storage.ring.etcd.username', str('')),
    password: flag('common.storage.ring.etcd.password', str('')),
  }),
});

/** `common`: settings shared by every component. */
export const commonSection = section({
  // Loki has no default here; logsvc keeps its data under ./data unless told otherwise.
  path_prefix: flag('common.path-prefix', str('./data')),
  replication_factor: int(1, 1),
  instance_addr: str(''),
  ring: section({ kvstore }),
});

export type KvStoreConfig = z.output<typeof kvstore>;
