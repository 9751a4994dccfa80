import { defaulted, s } from '../schema';

// The LogService spec: one definition for the CRD, the operator, the admin UI and the docs.

export const DEPLOYMENT_MODES = ['SingleBinary', 'SimpleScalable', 'Microservices'] as const;

/** The values of `spec.size` (LokiStack's sizes; presets.ts has what each sets). */
export const SIZE_PRESETS = [
  '1x.demo',
  '1x.pico',
  '1x.extra-small',
  '1x.small',
  '1x.medium',
] as const;

/** The operators of `matchExpressions`, as Kubernetes' label selectors have them. */
export const SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;

/** A Kubernetes label selector (`matchLabels` and `matchExpressions`, all of them must hold). */
function labelSelector(what: string, description: string, options?: { required: boolean }) {
  return s.object(
    {
      matchLabels: s.map(
        'label',
        s.string('Label value.'),
        `Labels ${what} must carry (all of them).`,
      ),
      matchExpressions: s.array(
        s.object(
          {
            key: s.string('The label.', { required: true }),
            operator: s.enum(
              SELECTOR_OPERATORS,
              '`In`/`NotIn`: the label is (not) one of `values`; `Exists`/`DoesNotExist`: it is (not) set.',
              { required: true },
            ),
            values: s.array(
              s.string('Label value.'),
              'The values of `In` and `NotIn` (at least one); empty for `Exists` and `DoesNotExist`.',
            ),
          },
          'One requirement on a label.',
          { typeName: 'SelectorRequirement' },
        ),
        `Requirements on the labels of ${what} (all of them), as in Kubernetes' label selectors.`,
      ),
    },
    description,
    options,
  );
}

const resources = defaulted(
  {
    requests: s.map('resource', s.quantity('amount'), 'Minimum resources (`cpu`, `memory`).'),
    limits: s.map('resource', s.quantity('amount'), 'Maximum resources (`cpu`, `memory`).'),
  },
  'Container resources, as in a Pod spec.',
  'ResourcesSpec',
);

const placement = {
  nodeSelector: s.map('label', s.string('Label value.'), 'Node labels the pods must match.'),
  tolerations: s.array(
    s.opaque('A toleration, as in a Pod spec.'),
    'Taints the pods tolerate, as in a Pod spec.',
  ),
  affinity: s.opaque('Node and pod (anti-)affinity, as in a Pod spec.'),
  topologySpreadConstraints: s.array(
    s.opaque('A topology spread constraint, as in a Pod spec.'),
    'How the pods spread over nodes and zones, as in a Pod spec. Unset for ingesters (also write and single-binary pods): spread over `kubernetes.io/hostname` and `topology.kubernetes.io/zone` (maxSkew 1, ScheduleAnyway); `[]`: none.',
  ),
  priorityClassName: s.string("The pods' PriorityClass."),
};

/** `presettable`: a size preset (`spec.size`) sets its replicas and resources. */
const component = (what: string, replicas: number, maximum?: number, presettable = false) =>
  defaulted(
    {
      replicas: s.int(`Number of ${what} pods.`, {
        default: replicas,
        minimum: 0,
        ...(maximum === undefined ? {} : { maximum }),
        ...(presettable ? { presettable } : {}),
      }),
      resources,
      ...placement,
    },
    `The ${what} pods.`,
    'ComponentSpec',
  );

export const componentsSchema = defaulted(
  {
    singleBinary: component('single-binary (`-target=all`)', 1, 1),
    write: component('write (`-target=write`: distributor and ingester; SimpleScalable)', 3),
    read: component('read (`-target=read`: query frontend and querier; SimpleScalable)', 2),
    backend: component(
      'backend (`-target=backend`: query scheduler, index gateway, compactor, ruler; SimpleScalable)',
      1,
    ),
    distributor: component('distributor (Microservices)', 2, undefined, true),
    ingester: component(
      'ingester (Microservices); with `zones`, this many in each zone',
      3,
      undefined,
      true,
    ),
    querier: component('querier (Microservices)', 2, undefined, true),
    queryFrontend: component(
      'query frontend (Microservices; the Service to query; 0: the queriers answer reads directly)',
      1,
      undefined,
      true,
    ),
    queryScheduler: component(
      'query scheduler (Microservices, with a query frontend; 0: the frontend queues itself)',
      1,
    ),
    indexGateway: component(
      'index gateway (Microservices; 0: queriers read the index)',
      0,
      undefined,
      true,
    ),
    compactor: component('compactor (Microservices; runs when `compactor.enabled`)', 1, 1),
    ruler: component('ruler (Microservices; runs when `ruler.enabled`)', 1, undefined, true),
  },
  'Replicas and resources of each component; only those of `mode` are used.',
  'ComponentsSpec',
);

const secretRef = s.object(
  {
    name: s.format('dns-label', "Name of a Secret in the LogService's namespace.", {
      required: true,
    }),
    accessKeyIdKey: s.string('Key of the access key ID in the Secret.', {
      default: 'AWS_ACCESS_KEY_ID',
    }),
    secretAccessKeyKey: s.string('Key of the secret access key in the Secret.', {
      default: 'AWS_SECRET_ACCESS_KEY',
    }),
  },
  'Secret holding the S3 credentials.',
  { typeName: 'S3SecretRef' },
);

export const storageSchema = defaulted(
  {
    type: s.enum(['filesystem', 's3'], 'Object store for chunks and index.', {
      default: 'filesystem',
    }),
    size: s.quantity("Size of each stateful pod's volume (WAL, local index, working files).", {
      default: '10Gi',
    }),
    storageClassName: s.string('Storage class of those volumes; empty: the cluster default.'),
    sharedClaimName: s.format(
      'dns-label',
      'With `type: filesystem` and several pods: an existing ReadWriteMany PersistentVolumeClaim every pod mounts as the object store.',
    ),
    s3: s.object(
      {
        bucket: s.string('Bucket name.', { required: true, minLength: 1 }),
        endpoint: s.string('S3 endpoint (`host:port` or URL); empty: AWS.'),
        region: s.string('Region.'),
        forcePathStyle: s.bool('Path-style requests (MinIO).', { default: false }),
        insecure: s.bool('Plain HTTP to the endpoint.', { default: false }),
        secret: secretRef,
      },
      'S3 settings (`type: s3`).',
      { typeName: 'S3Spec' },
    ),
  },
  'Where data lives.',
  'StorageSpec',
);

export const ringSchema = defaulted(
  {
    store: s.enum(
      ['managed', 'etcd'],
      'The ring KV store: an operator-managed etcd, or existing etcd endpoints. Not used by SingleBinary.',
      { default: 'managed' },
    ),
    etcdEndpoints: s.array(
      s.format('host-port', 'An etcd endpoint.'),
      'Endpoints of an existing etcd (`store: etcd`).',
    ),
    managed: defaulted(
      {
        image: s.string('etcd image of the managed etcd.', {
          default: 'gcr.io/etcd-development/etcd:v3.5.17',
        }),
        replicas: s.int(
          'Members of the managed etcd (1 or 3): 3 tolerate the loss of one. It can grow from 1 to 3 (the operator adds one member at a time, each joining the running cluster), never shrink.',
          {
            default: 3,
            minimum: 1,
            maximum: 3,
          },
        ),
        size: s.quantity('Volume size of each member.', { default: '1Gi' }),
        resources,
      },
      'The managed etcd (`store: managed`).',
      'ManagedEtcdSpec',
    ),
  },
  'Ring key-value store.',
  'RingSpec',
);

export const tlsSchema = s.object(
  {
    secretName: s.format(
      'dns-label',
      "A `kubernetes.io/tls` Secret in the LogService's namespace with `tls.crt`, `tls.key` and `ca.crt`: the certificate every pod serves gRPC with and dials its peers with; it must carry the DNS name `<logservice>-grpc` (e.g. `logs-grpc`) and be signed by `ca.crt`.",
      { required: true },
    ),
    mutual: s.bool(
      'Mutual TLS: servers require a client certificate signed by `ca.crt` (`RequireAndVerifyClientCert`) and clients present `tls.crt`. false: servers ask for none.',
      { default: true },
    ),
  },
  'TLS on every gRPC connection between the pods and to the managed etcd (unset: plaintext). HTTP (port 3100) stays plaintext.',
  { typeName: 'TlsSpec' },
);

export const limitsSchema = s.object(
  {
    ingestionRateMB: s.number('`ingestion_rate_mb`: per-tenant ingestion rate (MB/s).', {
      minimum: 0,
    }),
    ingestionBurstSizeMB: s.number('`ingestion_burst_size_mb`: per-tenant burst (MB).', {
      minimum: 0,
    }),
    maxLineSize: s.format('size', '`max_line_size`: longest accepted line.'),
    maxLabelNamesPerSeries: s.int('`max_label_names_per_series`.', { minimum: 1 }),
    maxStreamsPerUser: s.int('`max_streams_per_user`: streams per ingester (0: off).', {
      minimum: 0,
    }),
    maxGlobalStreamsPerUser: s.int('`max_global_streams_per_user`: streams in the cluster.', {
      minimum: 0,
    }),
    perStreamRateLimit: s.format('size', '`per_stream_rate_limit` (per second).'),
    perStreamRateLimitBurst: s.format('size', '`per_stream_rate_limit_burst`.'),
    rejectOldSamples: s.bool('`reject_old_samples`.'),
    rejectOldSamplesMaxAge: s.format('duration', '`reject_old_samples_max_age`.'),
    maxQueryLength: s.format('duration', '`max_query_length`.'),
    maxQueryLookback: s.format('duration', '`max_query_lookback`.'),
    maxQuerySeries: s.int('`max_query_series`.', { minimum: 1 }),
    maxEntriesLimitPerQuery: s.int('`max_entries_limit_per_query`.', { minimum: 1 }),
    queryTimeout: s.format('duration', '`query_timeout`.'),
    retentionPeriod: s.format('duration', '`retention_period` (needs `retention.enabled`).'),
  },
  "Limits (`limits_config` keys, camelCase); unset ones keep logsvc's defaults.",
  { typeName: 'Limits' },
);

export const retentionSchema = defaulted(
  {
    enabled: s.bool('Run retention and deletes in the compactor (`compactor.retention_enabled`).', {
      default: false,
    }),
    deleteDelay: s.format('duration', '`compactor.retention_delete_delay`.', { default: '2h' }),
  },
  'Retention (periods are limits: `limits.global.retentionPeriod`, per tenant too).',
  'RetentionSpec',
);

export const specSchema = s.object(
  {
    mode: s.enum(DEPLOYMENT_MODES, 'How logsvc is deployed.', { default: 'SingleBinary' }),
    version: s.string('logsvc version; the image tag unless `image.tag` is set. Shown in status.', {
      required: true,
      minLength: 1,
    }),
    image: defaulted(
      {
        repository: s.string('Image repository.', { default: 'logsvc/logsvc' }),
        tag: s.string('Image tag; default: `version`.'),
        pullPolicy: s.enum(['Always', 'IfNotPresent', 'Never'], 'Image pull policy.', {
          default: 'IfNotPresent',
        }),
      },
      'The logsvc image.',
      'ImageSpec',
    ),
    authEnabled: s.bool('`auth_enabled`: require `X-Scope-OrgID`.', { default: true }),
    size: s.enum(
      SIZE_PRESETS,
      "A size preset, as LokiStack's (mode Microservices): the replication factor, the replicas and resource requests of each component and the global limits (docs/operator.md has the table). Each field written in the spec wins over the preset's.",
    ),
    replicationFactor: s.int(
      'Copies of each stream (`common.replication_factor`). SingleBinary: 1.',
      {
        default: 3,
        minimum: 1,
        maximum: 5,
        presettable: true,
      },
    ),
    zones: s.array(
      s.format('dns-label', 'A zone name (the node label `topology.kubernetes.io/zone`).'),
      'Zone-aware replication: one ingester StatefulSet per zone, pinned to its nodes.',
      { unique: true },
    ),
    components: componentsSchema,
    storage: storageSchema,
    ring: ringSchema,
    tls: tlsSchema,
    limits: defaulted(
      {
        global: limitsSchema,
        tenants: s.map(
          'tenant ID',
          limitsSchema,
          'Per-tenant overrides (the runtime config file).',
        ),
      },
      'Ingestion and query limits.',
      'LimitsSpec',
    ),
    retention: retentionSchema,
    compactor: defaulted(
      { enabled: s.bool('Run a compactor.', { default: true }) },
      'Compactor switch.',
    ),
    ruler: defaulted(
      {
        enabled: s.bool('Run the ruler.', { default: false }),
        alertmanagerURL: s.string('`ruler.alertmanager_url`.'),
      },
      'Ruler switch.',
    ),
    rules: s.object(
      {
        selector: labelSelector(
          'a LogServiceRule',
          'Which LogServiceRules the ruler runs; `{}`: every one.',
          { required: true },
        ),
        namespaceSelector: labelSelector(
          'a namespace',
          "Namespaces to take LogServiceRules from; `{}`: every namespace; unset: the LogService's own.",
        ),
      },
      "Rules as custom resources: the LogServiceRules selected here are validated and written into the ruler's local rule storage (a ConfigMap mounted in the pods that run the ruler).",
      { typeName: 'RulesSpec' },
    ),
    configOverrides: s.opaque(
      "logsvc (Loki) configuration keys the spec does not model, e.g. `{ ingester: { chunk_idle_period: 1h } }`: merged over what the operator renders into config.yaml (maps key by key, other values replaced), and checked with logsvc's own config loader for every target before anything is applied (unknown keys and bad values are refused).",
    ),
    paused: s.bool(
      'Stop managing this LogService: while true the operator applies, deletes and replaces nothing (e.g. during an operator upgrade, or by hand); its status and Events still say what it sees.',
      { default: false },
    ),
    rollout: defaulted(
      {
        podReadyTimeout: s.format(
          'duration',
          'How long a replaced ingester may take to be Ready and ACTIVE before the rollout halts (Degraded).',
          { default: '10m' },
        ),
        terminationGracePeriod: s.format(
          'duration',
          'Grace period of stateful pods: time to flush on shutdown.',
          { default: '5m' },
        ),
        maxUnavailablePerZone: s.int(
          'With `zones`: how many ingesters of one zone are replaced at once (zone by zone; every stream also lives in the other zones). Without zones: one at a time.',
          { default: 1, minimum: 1 },
        ),
      },
      'Rollout settings.',
      'RolloutSpec',
    ),
  },
  'The desired logsvc cluster.',
  { typeName: 'LogServiceSpec' },
);
