// What the admin UI (`/ui/`) reads besides Loki's own endpoints: the live cluster overview and
// the list of ring pages it looks for.

import type { ServiceStatus } from './status';

/** The WebSocket path of the live overview; each message is an `OverviewMessage`. */
export const OVERVIEW_SOCKET_PATH = '/ui/ws';
/** `GET` answers the same `ClusterOverview` once, for scripts and tests. */
export const OVERVIEW_PATH = '/ui/api/overview';
/**
 * Prefix of the per-instance proxy: `/ui/api/instances/<id>/<path>` forwards to that instance's
 * own HTTP API, for the paths in INSTANCE_PROXY_PATHS only.
 */
export const INSTANCE_PROXY_PREFIX = '/ui/api/instances';
export const INSTANCE_PROXY_PATHS = [
  '/config',
  '/log_level',
  '/flush',
  '/ingester/prepare_shutdown',
  '/services',
  '/ready',
  '/ui/api/logservice',
  '/ui/api/features',
  '/ui/api/config-file',
  '/metrics',
  '/loki/api/v1/status/buildinfo',
  // Explore in a process without a querier or query frontend queries one that runs it.
  '/loki/api/v1/query',
  '/loki/api/v1/query_range',
] as const;

/**
 * `GET` answers the `UiFeatures` of the process: what the admin UI may ask it, so that it never
 * asks for a page this process does not serve (a 404 in the browser's console).
 */
export const UI_FEATURES_PATH = '/ui/api/features';
/**
 * `GET` answers the `-config.file` the process started with, as written (before `${VAR}`
 * expansion, secrets masked), as YAML; 404 when it started without one.
 */
export const CONFIG_FILE_PATH = '/ui/api/config-file';

/**
 * `GET` answers the tenant's rule groups as `GET /loki/api/v1/rules` does, but `{}` (200) for a
 * tenant without any, where Loki's API answers 404.
 */
export const UI_RULES_PATH = '/ui/api/rules';

/**
 * `GET` answers `{ tenants: string[] }`: the tenants this process knows (in object storage, in
 * its ingester's memory, with overrides in its runtime config), sorted.
 */
export const UI_TENANTS_PATH = '/ui/api/tenants';

/** `GET` answers the `TenantOverridesView` of the process (its runtime config's overrides). */
export const TENANT_OVERRIDES_PATH = '/ui/api/overrides';

/** One limit a tenant's override changes. */
export interface TenantLimitChange {
  /** Its name under `limits_config` (and under `overrides.<tenant>` of the runtime config). */
  setting: string;
  /** The value every other tenant has (`limits_config`). */
  default: unknown;
  /** This tenant's. */
  value: unknown;
}

export interface TenantOverridesView {
  /** `runtime_config.file`, '' when none is set (then no tenant has overrides). */
  runtime_config_file: string;
  /** Every tenant with overrides, by name, with the limits that differ from the defaults. */
  tenants: { tenant: string; changes: TenantLimitChange[] }[];
}

export interface UiFeatures {
  /** The rings whose page (RING_PAGES) this process answers, by RING_PAGES' `ring`. */
  rings: string[];
  /** `/ui/api/logservice` answers (started by the operator, its LogService file readable). */
  logservice: boolean;
  /** `/ui/api/config-file` answers (started with `-config.file`). */
  config_file: boolean;
  /**
   * The delete API (`/loki/api/v1/delete`, `/logsvc/api/v1/delete/progress`) answers: a
   * compactor with `compactor.retention_enabled`, as Loki registers it.
   */
  deletes: boolean;
  /**
   * The rules APIs (`/loki/api/v1/rules`, `/prometheus/api/v1/rules`, `/ui/api/rules`) answer:
   * this process runs the ruler.
   */
  rules: boolean;
  /**
   * The query APIs (`query`, `query_range`, the tail and `/ui/api/tail`) answer: this process
   * runs a querier or a query frontend.
   */
  queries: boolean;
  /** `auth_enabled`: false means every request acts for the single tenant `fake`. */
  auth_enabled: boolean;
  /** `querier.multi_tenant_queries_enabled`: a query may name tenants `a|b`. */
  multi_tenant_queries: boolean;
}

/** An instance's membership of one ring, as that ring's page shows it. */
export interface InstanceRingMembership {
  ring: string;
  state: string;
  address: string;
  zone: string;
  healthy: boolean;
}

/** One logsvc process of the cluster. */
export interface InstanceOverview {
  /** Its instance ID in the rings. */
  id: string;
  /** This is the process that answered. */
  self: boolean;
  /**
   * Whether the process reports its own status (a logsvc process in this cluster's KV store);
   * false for a ring member known only from the rings: then only `rings` is filled.
   */
  reported: boolean;
  /** Where its HTTP API answers (`http://host:port`), '' when unknown. */
  http_url: string;
  /** The components it runs. */
  targets: string[];
  version: string;
  /** RFC 3339, when the process started. */
  started_at: string;
  /** Its `/ready` answer. */
  ready: boolean;
  ready_message: string;
  /** Its `/services`. */
  services: ServiceStatus[];
  /** RFC 3339, when it last reported. */
  updated_at: string;
  /**
   * Every ID the process has in a ring (one per ring it joins; they differ when, say,
   * `-ingester.lifecycler.ID` is set and the other rings use the host name). Absent in reports
   * of older processes: then `id` alone.
   */
  ring_ids?: string[];
  rings: InstanceRingMembership[];
}

export interface ClusterOverview {
  /** RFC 3339, when the overview was taken. */
  now: string;
  /** `single-binary` when the rings are this process's own (in memory), else `cluster`. */
  mode: 'single-binary' | 'cluster';
  instances: InstanceOverview[];
}

/** A message of the overview WebSocket. */
export interface OverviewMessage {
  event: 'overview';
  data: ClusterOverview;
}

/** The rings the admin UI shows, with their pages; a page that answers 404 is left out. */
export const RING_PAGES = [
  { ring: 'ingester', title: 'Ingester', path: '/ring' },
  { ring: 'distributor', title: 'Distributor', path: '/distributor/ring' },
  { ring: 'index-gateway', title: 'Index gateway', path: '/indexgateway/ring' },
  { ring: 'ruler', title: 'Ruler', path: '/ruler/ring' },
  { ring: 'compactor', title: 'Compactor', path: '/compactor/ring' },
  { ring: 'pattern-ingester', title: 'Pattern ingester', path: '/pattern/ring' },
  { ring: 'scheduler', title: 'Query scheduler', path: '/scheduler/ring' },
] as const;

/**
 * The tail WebSocket for browsers, which cannot set headers on a WebSocket: the same as
 * `/loki/api/v1/tail`, with a `ticket` from UI_TAIL_TICKET_PATH instead of X-Scope-OrgID (the
 * ticket carries the tenant it was issued for). Same-origin pages only.
 */
export const UI_TAIL_SOCKET_PATH = '/ui/api/tail';

/**
 * `POST` with X-Scope-OrgID answers a `TailTicket`: one use of UI_TAIL_SOCKET_PATH for that
 * tenant, within its lifetime.
 */
export const UI_TAIL_TICKET_PATH = '/ui/api/tail/ticket';

export interface TailTicket {
  ticket: string;
  /** Seconds within which the WebSocket must be opened with it. */
  expires_in: number;
}

/**
 * `GET` answers the `LogServiceView` of a process the logsvc operator started (in Kubernetes),
 * 404 elsewhere.
 */
export const LOGSERVICE_PATH = '/ui/api/logservice';
/**
 * Environment variable naming the file with the LogService a process was rendered from (its
 * identity and spec); the operator sets it on every logsvc container.
 */
export const LOGSERVICE_FILE_ENV = 'LOGSVC_LOGSERVICE_FILE';

/** The LogService resource of a Kubernetes deployment beside the config it rendered. */
export interface LogServiceView {
  name: string;
  namespace: string;
  /** `metadata.generation` of the spec shown; absent when the operator did not record it. */
  generation?: number;
  /** The LogService's spec as the cluster stores it, in YAML. */
  specYaml: string;
  /**
   * The config file this process started with (`-config.file`, before `${VAR}` expansion,
   * secrets masked), or its running config when it started without one.
   */
  renderedConfigYaml: string;
  /** Where renderedConfigYaml comes from. */
  renderedConfigSource: 'config-file' | 'running-config';
  /**
   * The config file changed on disk since the process started (a spec change not rolled out to
   * this process yet): the spec shown may be newer than renderedConfigYaml.
   */
  configFileChanged: boolean;
  /** The LogService's status from the API server (rollout progress, conditions). */
  status: LogServiceStatusView;
}

/**
 * Environment variable naming the directory of the pod's service account credentials (`token`,
 * `ca.crt`), default `/var/run/secrets/kubernetes.io/serviceaccount`: for running a pod without
 * a mount namespace (the e2e node agent), where the kubelet's path cannot be mounted.
 */
export const SERVICE_ACCOUNT_DIR_ENV = 'LOGSVC_SERVICEACCOUNT_DIR';

/** A condition of the LogService's status (metav1.Condition). */
export interface LogServiceCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

/**
 * The LogService's status as the Kubernetes API server holds it, read by the process with its
 * pod's service account (the operator grants it `get` on its own LogService); or why it could
 * not be read (`error`, with the other fields absent).
 */
export interface LogServiceStatusView {
  /** Why the status could not be read (not in a pod, no permission, API server away). */
  error?: string;
  /** `metadata.generation` of the LogService now (may be newer than the file's). */
  generation?: number;
  observedGeneration?: number;
  lastObservedTime?: string;
  /** The logsvc version every pod runs once the rollout is over. */
  version?: string;
  conditions?: LogServiceCondition[];
  components?: Record<
    string,
    { kind: string; replicas: number; readyReplicas: number; updatedReplicas: number }
  >;
  /** The ring-aware ingester rollout: phase Idle, Replacing, Waiting or Halted. */
  rollout?: { phase: string; pod?: string; message?: string };
}
