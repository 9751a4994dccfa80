import { API_VERSION, KIND } from '@logsvc/operator-api';
import { stringify } from 'yaml';
import { CONFIG_DIR } from './config';
import type { Owner } from './manifest';

// The LogService a pod was rendered from, copied into its ConfigMap so that logsvc's admin UI
// can show the spec beside the config it produced (`GET /ui/api/logservice`). The file is not
// part of the config hash: a spec change that renders the same config.yaml rolls no pod.

/** ConfigMap key (and file name under CONFIG_DIR) of the LogService's identity and spec. */
export const LOGSERVICE_FILE_KEY = 'logservice.yaml';
export const LOGSERVICE_FILE = `${CONFIG_DIR}/${LOGSERVICE_FILE_KEY}`;
/** Names LOGSERVICE_FILE to logsvc; the same name as `LOGSERVICE_FILE_ENV` of @logsvc/api. */
export const LOGSERVICE_FILE_ENV = 'LOGSVC_LOGSERVICE_FILE';

/** logservice.yaml: apiVersion, kind, name, namespace, generation and the spec as stored. */
export function renderLogServiceFile(owner: Owner, spec: unknown): string {
  const metadata: Record<string, unknown> = { name: owner.name, namespace: owner.namespace };
  if (owner.generation !== undefined) metadata.generation = owner.generation;
  return stringify({ apiVersion: API_VERSION, kind: KIND, metadata, spec }, { lineWidth: 0 });
}
