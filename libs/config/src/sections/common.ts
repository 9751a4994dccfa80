import { z } from 'zod';
import { duration, int, oneOf, section, str, stringList } from '../fields';

/** `common.ring.kvstore`: where ring state lives (memory in one process, etcd in a cluster). */
const kvstore = section({
  store: oneOf(['inmemory', 'etcd'], 'inmemory'),
  prefix: str('collectors/'),
  etcd: section({
    endpoints: stringList([]),
    dial_timeout: duration(10_000),
    max_retries: int(10),
    username: str(''),
    password: str(''),
  }),
});

/** `common`: settings shared by every component. */
export const commonSection = section({
  // Loki has no default here; logsvc keeps its data under ./data unless told otherwise.
  path_prefix: str('./data'),
  replication_factor: int(1, 1),
  instance_addr: str(''),
  ring: section({ kvstore }),
});

export type KvStoreConfig = z.output<typeof kvstore>;
