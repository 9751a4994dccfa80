// What Loki's config_wrapper does with `common` after the file and flags are read: copies the
// common ring, storage directories, persisted token files and replication factor into every
// component that did not set its own. Loki re-reads the file and flags afterwards so that what
// was written wins; here "written" is decided from the raw document (file plus flags).
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { effectiveReplicationFactor } from './ring-config';
import { configSchema, type Config } from './schema';

type Doc = Record<string, unknown>;

function isMap(value: unknown): value is Doc {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function valueAt(doc: unknown, dotted: string): unknown {
  let node = doc;
  for (const key of dotted.split('.')) {
    if (!isMap(node)) return undefined;
    node = node[key];
  }
  return node;
}

function setAt(doc: Doc, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let node = doc;
  for (const key of keys.slice(0, -1)) node = node[key] as Doc;
  node[keys[keys.length - 1]] = structuredClone(value);
}

/** Sets `value` at `to`, key by key for maps, leaving whatever the raw document wrote. */
function fillUnwritten(config: Config, raw: unknown, to: string, value: unknown): void {
  if (isMap(value)) {
    for (const [key, v] of Object.entries(value)) fillUnwritten(config, raw, `${to}.${key}`, v);
  } else if (valueAt(raw, to) === undefined) {
    setAt(config as unknown as Doc, to, value);
  }
}

/** A ring's fields as `lokiring.RingConfig` names them, and where that ring keeps each one. */
type RingFieldPaths = Readonly<Record<string, string>>;

const at = (prefix: string, fields: readonly string[]): RingFieldPaths =>
  Object.fromEntries(fields.map((field) => [field, `${prefix}.${field}`]));

const SHARED = [
  'kvstore',
  'heartbeat_period',
  'heartbeat_timeout',
  'instance_id',
  'instance_interface_names',
  'instance_port',
  'instance_addr',
];
const WITH_ZONES = [...SHARED, 'instance_availability_zone', 'zone_awareness_enabled'];

const INGESTER_RING: RingFieldPaths = {
  kvstore: 'ingester.lifecycler.ring.kvstore',
  heartbeat_period: 'ingester.lifecycler.heartbeat_period',
  heartbeat_timeout: 'ingester.lifecycler.ring.heartbeat_timeout',
  tokens_file_path: 'ingester.lifecycler.tokens_file_path',
  zone_awareness_enabled: 'ingester.lifecycler.ring.zone_awareness_enabled',
  instance_id: 'ingester.lifecycler.id',
  instance_interface_names: 'ingester.lifecycler.interface_names',
  instance_port: 'ingester.lifecycler.port',
  instance_addr: 'ingester.lifecycler.address',
  instance_availability_zone: 'ingester.lifecycler.availability_zone',
};

/** `pattern_ingester.lifecycler`: takes `common.ring` only, never the ingester's ring. */
const PATTERN_RING: RingFieldPaths = Object.fromEntries(
  Object.entries(INGESTER_RING).map(([field, to]) => [
    field,
    to.replace(/^ingester\.lifecycler\./, 'pattern_ingester.lifecycler.'),
  ]),
);

/** The other rings, with the fields Loki copies into each (applyConfigToRings). */
const OTHER_RINGS: readonly { section: string; fields: RingFieldPaths }[] = [
  { section: 'distributor.ring', fields: at('distributor.ring', SHARED) },
  { section: 'ruler.ring', fields: at('ruler.ring', SHARED) },
  {
    section: 'query_scheduler.scheduler_ring',
    fields: at('query_scheduler.scheduler_ring', WITH_ZONES),
  },
  { section: 'compactor.compactor_ring', fields: at('compactor.compactor_ring', WITH_ZONES) },
  { section: 'index_gateway.ring', fields: at('index_gateway.ring', WITH_ZONES) },
];

let schemaDefaults: Config | undefined;
const defaults = () => (schemaDefaults ??= configSchema.parse({}));

function copyRing(
  config: Config,
  raw: unknown,
  source: (field: string) => unknown,
  fields: RingFieldPaths,
) {
  for (const [field, to] of Object.entries(fields)) fillUnwritten(config, raw, to, source(field));
}

/**
 * Loki's precedence for rings: when `common.ring` (with `common.instance_addr` as its address)
 * differs from its defaults, it fills every ring; otherwise rings left entirely at their
 * defaults take the ingester's ring. A ring's own written settings always win.
 */
function applyRings(config: Config, raw: unknown): void {
  const commonRing = structuredClone(config.common.ring);
  if (config.common.instance_addr !== '' && valueAt(raw, 'common.ring.instance_addr') === undefined)
    commonRing.instance_addr = config.common.instance_addr;
  if (!isDeepStrictEqual(commonRing, defaults().common.ring)) {
    const fromCommon = (field: string) => (commonRing as Record<string, unknown>)[field];
    copyRing(config, raw, fromCommon, INGESTER_RING);
    copyRing(config, raw, fromCommon, PATTERN_RING);
    for (const ring of OTHER_RINGS) copyRing(config, raw, fromCommon, ring.fields);
    return;
  }
  const fromIngester = (field: string) => valueAt(config, INGESTER_RING[field]);
  for (const ring of OTHER_RINGS) {
    if (isDeepStrictEqual(valueAt(config, ring.section), valueAt(defaults(), ring.section)))
      copyRing(config, raw, fromIngester, ring.fields);
  }
}

/** `common.persist_tokens`: token files under path_prefix, as Loki names them. */
const TOKEN_FILES: Readonly<Record<string, string>> = {
  'ingester.lifecycler.tokens_file_path': 'ingester.tokens',
  'compactor.compactor_ring.tokens_file_path': 'compactor.tokens',
  'query_scheduler.scheduler_ring.tokens_file_path': 'scheduler.tokens',
  'index_gateway.ring.tokens_file_path': 'indexgateway.tokens',
  'pattern_ingester.lifecycler.tokens_file_path': 'pattern.tokens',
};

function applyTokenFiles(config: Config, raw: unknown): void {
  if (!config.common.persist_tokens) return;
  for (const [to, file] of Object.entries(TOKEN_FILES))
    fillUnwritten(config, raw, to, path.join(config.common.path_prefix, file));
}

function applyStorage(config: Config, raw: unknown): void {
  // common.storage.s3 / azure: Loki's aws_storage_config / azure_storage_config for every store.
  // As Loki's applyStorageConfig, the ruler's store follows (S3 only: logsvc's ruler has no
  // Azure store).
  for (const [from, to, ruler] of [
    ['common.storage.s3', 'storage_config.aws', 's3'],
    ['common.storage.azure', 'storage_config.azure', undefined],
  ] as const) {
    const written = valueAt(raw, from);
    if (!isMap(written)) continue;
    for (const key of Object.keys(written)) {
      const value = valueAt(config, `${from}.${key}`);
      fillUnwritten(config, raw, `${to}.${key}`, value);
      if (ruler !== undefined && isMap(valueAt(config, `ruler.storage.${ruler}`))) {
        const rulerStore = valueAt(config, `ruler.storage.${ruler}`) as Doc;
        if (Object.hasOwn(rulerStore, key)) {
          fillUnwritten(config, raw, `ruler.storage.${ruler}.${key}`, value);
        }
      }
    }
    if (ruler !== undefined) fillUnwritten(config, raw, 'ruler.storage.type', ruler);
  }
  applyS3Url(config.storage_config.aws, raw, 'storage_config.aws');
  const { chunks_directory, rules_directory } = config.common.storage.filesystem;
  if (chunks_directory !== '')
    fillUnwritten(config, raw, 'storage_config.filesystem.directory', chunks_directory);
  if (rules_directory !== '') {
    fillUnwritten(config, raw, 'ruler.storage.type', 'local');
    fillUnwritten(config, raw, 'ruler.storage.local.directory', rules_directory);
  }
}

/**
 * Loki's `s3: s3://<key>:<secret>@<host>/<bucket>` form (dskit's ConfigFromURL): the user
 * part gives the credentials, the path the bucket; a host with a dot is the endpoint (path
 * style, plain http), one without is the AWS region. Fields written out win.
 */
function applyS3Url(aws: Config['storage_config']['aws'], raw: unknown, at: string): void {
  if (aws.s3 === '') return;
  let url: URL;
  try {
    url = new URL(aws.s3);
  } catch {
    return; // validateConfig names the key
  }
  const fill = <K extends keyof typeof aws>(key: K, value: (typeof aws)[K]) => {
    if (valueAt(raw, `${at}.${key}`) === undefined) aws[key] = value;
  };
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  if (user !== '' || password !== '') {
    fill('access_key_id', user);
    fill('secret_access_key', password);
  }
  const bucket = url.pathname.replace(/^\//, '');
  if (bucket !== '') fill('bucketnames', bucket);
  fill('s3forcepathstyle', true);
  if (url.host.includes('.')) {
    fill('endpoint', url.host);
    fill('insecure', true);
  } else if (url.host !== '') {
    fill('region', url.host);
  }
}

function applyReplicationFactor(config: Config, raw: unknown): void {
  const factor = effectiveReplicationFactor(config);
  fillUnwritten(config, raw, 'ingester.lifecycler.ring.replication_factor', factor);
  fillUnwritten(config, raw, 'index_gateway.ring.replication_factor', factor);
}

/**
 * Applies `common` to the component sections of `config` (in place), where `raw` (the YAML
 * document with flags merged in) does not set the component's own value.
 */
export function applyCommonConfig(config: Config, raw: unknown): Config {
  applyRings(config, raw);
  applyTokenFiles(config, raw);
  applyStorage(config, raw);
  applyReplicationFactor(config, raw);
  return config;
}
