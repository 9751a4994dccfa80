// Settings `/config` must not print. Loading copies `common.ring`'s etcd password into every
// ring, so each ring's copy is listed.

const KVSTORE_SECTIONS = [
  'common.ring',
  'ingester.lifecycler.ring',
  'distributor.ring',
  'index_gateway.ring',
  'compactor.compactor_ring',
  'ruler.ring',
  'query_scheduler.scheduler_ring',
  'pattern_ingester.lifecycler.ring',
];

export const SECRET_KEYS: readonly string[] = [
  'storage_config.aws.secret_access_key',
  'ruler.storage.s3.secret_access_key',
  ...KVSTORE_SECTIONS.map((ring) => `${ring}.kvstore.etcd.password`),
];

/** A copy of `config` with every set secret replaced by `mask`, as Loki hides them. */
export function maskSecrets<T>(config: T, mask = '********'): T {
  const copy = structuredClone(config);
  for (const key of SECRET_KEYS) {
    const keys = key.split('.');
    let node: unknown = copy;
    for (const k of keys.slice(0, -1)) node = (node as Record<string, unknown> | undefined)?.[k];
    const last = keys[keys.length - 1];
    if (node !== null && typeof node === 'object' && (node as Record<string, unknown>)[last])
      (node as Record<string, unknown>)[last] = mask;
  }
  return copy;
}
