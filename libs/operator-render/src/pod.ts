import type { LogServiceSpec } from '@logsvc/operator-api';
import type { ComponentPlan } from './components';
import { CONFIG_DIR, CONFIG_FILE, DATA_DIR, GRPC_PORT, HTTP_PORT, SHARED_DIR } from './config';
import { durationSeconds } from './duration';
import { LOGSERVICE_FILE, LOGSERVICE_FILE_ENV } from './logservice-file';
import { ANNOTATION_CONFIG_HASH, LABEL_VERSION, LABEL_ZONE, selectorLabels } from './labels';
import type { Owner } from './manifest';
import { placement } from './placement';
import { rulesVolume, type SyncedRule } from './rules';
import { tlsVolume } from './tls';
import { serviceAccountName } from './rbac';

export const DATA_VOLUME = 'data';
export { ZONE_NODE_LABEL } from './placement';
/** uid/gid of the logsvc image (Dockerfile). */
export const LOGSVC_UID = 10001;

/** The image reference of a spec. */
export function imageOf(spec: LogServiceSpec): string {
  return `${spec.image.repository}:${spec.image.tag ?? spec.version}`;
}

/** Labels of a component's pods (and of its selector, minus the version). */
export function podSelector(owner: Owner, plan: ComponentPlan): Record<string, string> {
  return {
    ...selectorLabels(owner, plan.component),
    ...(plan.zone === undefined ? {} : { [LABEL_ZONE]: plan.zone }),
  };
}

// Ingesters are told to flush and leave the ring before SIGTERM, also when a node is drained
// (the operator's rollout calls the same endpoint itself). The image has Node, not curl.
const PREPARE_SHUTDOWN = `fetch('http://127.0.0.1:${HTTP_PORT}/ingester/prepare_shutdown',{method:'POST'}).catch(()=>{})`;

/** The pod template of a component. */
export function podTemplate(
  owner: Owner,
  spec: LogServiceSpec,
  plan: ComponentPlan,
  configHash: string,
  rules: readonly SyncedRule[] = [],
): Record<string, unknown> {
  const stateful = plan.kind === 'StatefulSet';
  const graceSeconds = stateful ? durationSeconds(spec.rollout.terminationGracePeriod) : 30;
  const args = [
    `-config.file=${CONFIG_FILE}`,
    '-config.expand-env=true',
    `-target=${plan.target}`,
    ...(plan.zone === undefined ? [] : [`-ingester.availability-zone=${plan.zone}`]),
    ...shutdownTimeoutArgs(spec, stateful, graceSeconds),
  ];
  const env: Record<string, unknown>[] = [
    { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
    // The admin UI shows this spec beside config.yaml (the whole ConfigMap is mounted).
    { name: LOGSERVICE_FILE_ENV, value: LOGSERVICE_FILE },
  ];
  const s3 = spec.storage.type === 's3' ? spec.storage.s3 : undefined;
  if (s3?.secret !== undefined) {
    env.push(
      {
        name: 'S3_ACCESS_KEY_ID',
        valueFrom: { secretKeyRef: { name: s3.secret.name, key: s3.secret.accessKeyIdKey } },
      },
      {
        name: 'S3_SECRET_ACCESS_KEY',
        valueFrom: { secretKeyRef: { name: s3.secret.name, key: s3.secret.secretAccessKeyKey } },
      },
    );
  }
  // S3 without a Secret: the variables are unset and expand-env turns them into "" (anonymous).
  const mounts: Record<string, unknown>[] = [
    { name: 'config', mountPath: CONFIG_DIR, readOnly: true },
    { name: DATA_VOLUME, mountPath: DATA_DIR },
    // The root filesystem is read-only.
    { name: 'tmp', mountPath: '/tmp' },
  ];
  const volumes: Record<string, unknown>[] = [
    { name: 'config', configMap: { name: `${owner.name}-config` } },
    { name: 'tmp', emptyDir: {} },
  ];
  if (!plan.volume) volumes.push({ name: DATA_VOLUME, emptyDir: {} });
  if (spec.mode !== 'SingleBinary' && spec.storage.type === 'filesystem') {
    mounts.push({ name: 'shared', mountPath: SHARED_DIR });
    volumes.push({
      name: 'shared',
      persistentVolumeClaim: { claimName: spec.storage.sharedClaimName },
    });
  }
  const ruleFiles = spec.rules === undefined ? undefined : rulesVolume(owner, plan, rules);
  if (ruleFiles !== undefined) {
    mounts.push(ruleFiles.mount);
    volumes.push(ruleFiles.volume);
  }
  const tls = tlsVolume(spec);
  if (tls !== undefined) {
    mounts.push(tls.mount);
    volumes.push(tls.volume);
  }
  const container: Record<string, unknown> = {
    name: 'logsvc',
    image: imageOf(spec),
    imagePullPolicy: spec.image.pullPolicy,
    args,
    env,
    ports: [
      { name: 'http', containerPort: HTTP_PORT, protocol: 'TCP' },
      { name: 'grpc', containerPort: GRPC_PORT, protocol: 'TCP' },
    ],
    volumeMounts: mounts,
    resources: plan.resources,
    readinessProbe: {
      httpGet: { path: '/ready', port: 'http' },
      periodSeconds: 5,
      timeoutSeconds: 2,
      failureThreshold: 3,
    },
    // Not /ready: it answers 503 while the WAL replays and while another ring member is
    // unhealthy, which must not restart a healthy process. buildinfo answers whenever the
    // HTTP server runs.
    livenessProbe: {
      httpGet: { path: '/loki/api/v1/status/buildinfo', port: 'http' },
      initialDelaySeconds: 10,
      periodSeconds: 10,
      timeoutSeconds: 2,
      failureThreshold: 6,
    },
    securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true },
  };
  if (plan.ringRollout) {
    container.lifecycle = { preStop: { exec: { command: ['node', '-e', PREPARE_SHUTDOWN] } } };
  }
  return {
    metadata: {
      labels: { ...podSelector(owner, plan), [LABEL_VERSION]: spec.version },
      annotations: { [ANNOTATION_CONFIG_HASH]: configHash },
    },
    spec: {
      // Its token lets the ui component read the LogService's status (rbac.ts).
      serviceAccountName: serviceAccountName(owner),
      // Stateful pods flush on shutdown (chunks to the object store): give them the time.
      terminationGracePeriodSeconds: graceSeconds,
      securityContext: {
        runAsUser: LOGSVC_UID,
        runAsGroup: LOGSVC_UID,
        fsGroup: LOGSVC_UID,
        runAsNonRoot: true,
      },
      ...placement(owner, spec, plan),
      containers: [container],
      volumes,
    },
  };
}

/**
 * A stateful pod's process gets the grace period for its final flush or WAL checkpoint, less
 * a tenth (5-30 s) for the preStop hook and the exit: the server's own default (30 s) would give
 * the checkpoint up long before Kubernetes kills the pod. Unless `configOverrides` sets it.
 */
function shutdownTimeoutArgs(
  spec: LogServiceSpec,
  stateful: boolean,
  graceSeconds: number,
): string[] {
  const server = spec.configOverrides?.server;
  const overridden =
    typeof server === 'object' && server !== null && 'graceful_shutdown_timeout' in server;
  if (!stateful || overridden || graceSeconds <= 0) return [];
  const margin = Math.min(30, Math.max(5, Math.ceil(graceSeconds / 10)));
  return [`-server.graceful-shutdown-timeout=${Math.max(1, graceSeconds - margin)}s`];
}
