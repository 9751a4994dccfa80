import { createHash } from 'node:crypto';
import { CRD_NAME, logServiceCrd, logServiceRuleCrd, RULE_CRD_NAME } from '@logsvc/operator-api';
import type { KubeClient } from './client';

/** The operator version that last applied the CRD (semver). */
export const ANNOTATION_CRD_VERSION = 'logsvc.io/operator-version';
/** sha256 of the CRD as that operator rendered it. */
export const ANNOTATION_CRD_HASH = 'logsvc.io/crd-hash';

const FIELD_MANAGER = 'logsvc-operator';

/** A CRD this operator serves: its name and its rendering from the schema. */
export interface OwnCrd {
  readonly name: string;
  readonly render: () => Record<string, unknown>;
}

export const LOGSERVICE_CRD: OwnCrd = { name: CRD_NAME, render: logServiceCrd };
export const LOGSERVICE_RULE_CRD: OwnCrd = { name: RULE_CRD_NAME, render: logServiceRuleCrd };
/** Every CRD the operator applies at start with `--upgrade-crds`. */
export const OWN_CRDS: readonly OwnCrd[] = [LOGSERVICE_CRD, LOGSERVICE_RULE_CRD];

/** -1, 0 or 1: `a` older, equal or newer than `b` (x.y.z; pre-release tags ignored). */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    v
      .split(/[-+]/)[0]
      .split('.')
      .map((n) => Number(n) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

/** A CRD this operator serves, annotated with its version and content hash. */
export function ownCrd(
  operatorVersion: string,
  own: OwnCrd = LOGSERVICE_CRD,
): Record<string, unknown> {
  const crd = own.render() as { metadata: Record<string, unknown> };
  const hash = createHash('sha256').update(JSON.stringify(crd)).digest('hex');
  return {
    ...crd,
    metadata: {
      ...crd.metadata,
      annotations: { [ANNOTATION_CRD_VERSION]: operatorVersion, [ANNOTATION_CRD_HASH]: hash },
    },
  };
}

export type CrdOutcome =
  | { readonly kind: 'Applied'; readonly from?: string }
  | { readonly kind: 'Current' }
  /** A newer operator applied it (an old replica during an operator upgrade): left alone. */
  | { readonly kind: 'Newer'; readonly installed: string };

/**
 * Brings one of the operator's CRDs (the LogService one unless told) to the schema of this operator at start (Helm installs `crds/`
 * only once, never upgrades them): server-side apply, guarded by version so an older replica
 * never takes a newer schema back. Objects stored under the previous schema keep their
 * stored values; the new schema's defaults fill only fields they lack.
 */
export async function upgradeCrd(
  client: KubeClient,
  operatorVersion: string,
  log: (message: string) => void = () => {},
  own: OwnCrd = LOGSERVICE_CRD,
): Promise<CrdOutcome> {
  const name = own.name;
  const path = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`;
  const wanted = ownCrd(operatorVersion, own);
  const hash = (wanted.metadata as { annotations: Record<string, string> }).annotations[
    ANNOTATION_CRD_HASH
  ];
  const installed = await client.get<{
    metadata: { annotations?: Record<string, string> };
    status?: { conditions?: { type: string; status: string }[] };
  }>(path);
  const from = installed?.metadata.annotations?.[ANNOTATION_CRD_VERSION];
  if (installed !== undefined && from !== undefined) {
    const order = compareVersions(from, operatorVersion);
    if (order > 0) {
      log(
        `CRD ${name} was applied by operator ${from}, newer than ${operatorVersion}: left as it is`,
      );
      return { kind: 'Newer', installed: from };
    }
    if (order === 0 && installed.metadata.annotations?.[ANNOTATION_CRD_HASH] === hash)
      return { kind: 'Current' };
  }
  await client.call(
    'PATCH',
    `${path}?fieldManager=${FIELD_MANAGER}&force=true`,
    wanted,
    'application/apply-patch+yaml',
  );
  log(`CRD ${name} applied (operator ${operatorVersion}${from ? `, was ${from}` : ''})`);
  return from === undefined ? { kind: 'Applied' } : { kind: 'Applied', from };
}
