import { isScalar, parseDocument } from 'yaml';
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
  'storage_config.aws.s3',
  'storage_config.azure.account_key',
  'storage_config.azure.connection_string',
  'common.storage.s3.secret_access_key',
  'common.storage.s3.s3',
  'common.storage.azure.account_key',
  'common.storage.azure.connection_string',
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

/** A value that only names an environment variable (`${VAR}`): no secret in the text itself. */
const ENV_REFERENCE = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

/**
 * Config file text with every secret that is written in it replaced by `mask`; text without one
 * is returned as it is (comments, order and quoting kept). A `${VAR}` reference is no secret
 * and stays. Text that is not YAML is returned as it is: it holds no key to mask.
 */
export function maskSecretsInYaml(text: string, mask = '********'): string {
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length > 0) return text;
  let masked = false;
  for (const key of SECRET_KEYS) {
    const path = key.split('.');
    const node = doc.getIn(path, true);
    if (!isScalar(node) || node.value === null || node.value === '') continue;
    if (typeof node.value === 'string' && ENV_REFERENCE.test(node.value)) continue;
    node.value = mask;
    masked = true;
  }
  return masked ? doc.toString({ lineWidth: 0 }) : text;
}
