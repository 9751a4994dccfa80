import { labelsToString, type Labels, type LogEntry } from '@logsvc/api';
import type { IngestError } from './errors';
import { bytesOf } from './instance';
import { StreamLimitRefusals } from './stream-limit-errors';

/**
 * Which streams of one push may be stored, decided before anything is built for them: a push
 * of a million new streams against an allowance of thousands is cut down to the allowance as
 * it is decoded, so refused streams never take memory or time. A pre-check: `Ingester.push`
 * still enforces the limits when it stores (another push may have used the allowance since).
 */
export interface StreamAdmission {
  /**
   * Whether the push may store this stream (its labels, or their canonical text); a refused one
   * is counted for `refusal`.
   */
  admit(labels: Labels | string, entries: readonly LogEntry[]): boolean;
  /** One error for every stream refused so far (Loki's text for the last), if any. */
  refusal(): IngestError | undefined;
}

/**
 * Where a distributor learns which new streams a tenant's push may create: the in-process
 * ingester (its stream limits). A distributor of a cluster has none: each ingester enforces
 * its limits when it stores.
 */
export interface StreamAdmissionSource {
  streamAdmission(tenant: string): Promise<StreamAdmission>;
}

/** Admits everything: where no ingester answers, the push fails anyway. */
export const ADMIT_ALL: StreamAdmission = { admit: () => true, refusal: () => undefined };

export interface StreamAllowance {
  readonly tenant: string;
  /** Whether the tenant holds this stream already. */
  readonly exists: (labelsText: string) => boolean;
  /** New streams the tenant may still create, and all tenants together. */
  readonly tenantLeft: number;
  readonly globalLeft: number;
  /** Called once per push with the refusal, to count what was discarded. */
  readonly onRefused: (error: IngestError) => void;
}

/** A StreamAdmission over a snapshot of the tenant's and the process's remaining allowance. */
export function streamAdmission(allowance: StreamAllowance): StreamAdmission {
  const created = new Set<string>();
  const refusals = new StreamLimitRefusals(allowance.tenant);
  let tenantLeft = allowance.tenantLeft;
  let globalLeft = allowance.globalLeft;
  let reported = false;
  // Streams that fit the allowance even if all of them are new are admitted unchecked: the
  // common push (far below its limits) builds no label text and looks nothing up here. Only
  // when that many have passed are they counted exactly, and every later one is checked.
  let unchecked = Math.max(0, Math.min(tenantLeft, globalLeft));
  const pending: Array<Labels | string> = [];
  const textOf = (l: Labels | string) => (typeof l === 'string' ? l : labelsToString(l));
  const countNew = (labelsText: string): boolean => {
    if (allowance.exists(labelsText) || created.has(labelsText)) return false;
    tenantLeft--;
    globalLeft--;
    created.add(labelsText);
    return true;
  };
  return {
    admit(labels, entries) {
      if (unchecked > 0) {
        unchecked--;
        pending.push(labels);
        return true;
      }
      for (const l of pending) countNew(textOf(l));
      pending.length = 0;
      const labelsText = textOf(labels);
      if (allowance.exists(labelsText) || created.has(labelsText)) return true;
      if (tenantLeft > 0 && globalLeft > 0) {
        tenantLeft--;
        globalLeft--;
        created.add(labelsText);
        return true;
      }
      const kind = tenantLeft > 0 ? 'global' : 'tenant';
      refusals.add(kind, labelsText, entries.length, bytesOf(entries));
      return false;
    },
    refusal() {
      const error = refusals.error();
      if (error && !reported) {
        reported = true;
        allowance.onRefused(error);
      }
      return error;
    },
  };
}
