import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOGSERVICE_API_VERSION } from '../kube/paths';
import type { KubeClient } from '../kube/client';
import type { EventSink } from '../observe/events';
import type { OperatorMetrics } from '../observe/metrics';
import type { ServingCertificate } from './certificates';
import { ensureWebhookSecret, patchCaBundle } from './secret';
import { WebhookServer } from './server';

export interface WebhookSetup {
  readonly port: number;
  readonly certDir?: string;
  readonly secret?: { readonly namespace: string; readonly name: string };
  readonly hosts: readonly string[];
  readonly config?: string;
}

export interface RunningWebhook {
  readonly server: WebhookServer;
  /** Why it does not admit yet (the CA bundle not set), or undefined. */
  notReady(): string | undefined;
  stop(): Promise<void>;
}

/**
 * Starts the admission webhook: its certificate from a directory or a self-signed one kept in
 * a Secret, the CA bundle set in the ValidatingWebhookConfiguration (retried every 10s until
 * it is), refusals of updates recorded as Events on the LogService.
 */
export async function startWebhook(
  client: KubeClient,
  setup: WebhookSetup,
  deps: {
    readonly metrics?: OperatorMetrics;
    readonly events: EventSink;
    readonly log: (message: string) => void;
  },
): Promise<RunningWebhook> {
  let certificate: ServingCertificate;
  if (setup.certDir !== undefined) {
    const read = (f: string) => readFileSync(join(setup.certDir!, f), 'utf8');
    let caCert = '';
    try {
      caCert = read('ca.crt');
    } catch {
      // a CA is needed only to patch the CA bundle
    }
    certificate = { cert: read('tls.crt'), key: read('tls.key'), caCert };
  } else if (setup.secret !== undefined) {
    certificate = await ensureWebhookSecret(
      client,
      setup.secret.namespace,
      setup.secret.name,
      setup.hosts,
    );
  } else throw new Error('the webhook needs a certificate directory or a Secret');

  const server = new WebhookServer({
    cert: certificate.cert,
    key: certificate.key,
    port: setup.port,
    log: deps.log,
    onReview: (outcome) => {
      deps.metrics?.webhookRequest(200);
      const request = outcome.request;
      if (outcome.refused === undefined || request === undefined) return;
      deps.log(
        `webhook: refused ${request.operation} of LogService ${request.namespace}/${request.name}: ${outcome.refused}`,
      );
      // A refused update is about an object that exists: note it there (not for dry runs).
      if (request.operation === 'UPDATE' && request.dryRun !== true && request.namespace)
        deps.events.record(
          {
            apiVersion: LOGSERVICE_API_VERSION,
            kind: 'LogService',
            namespace: request.namespace,
            name: request.name ?? '',
            uid: request.oldObject?.metadata?.uid,
          },
          'Warning',
          'Refused',
          `refused a change: ${outcome.refused}`,
        );
    },
  });
  await server.start();

  let bundleSet = setup.config === undefined;
  let timer: NodeJS.Timeout | undefined;
  const setBundle = async () => {
    try {
      if (certificate.caCert === '')
        throw new Error(`no ca.crt in ${setup.certDir}: cannot set the CA bundle`);
      const patched = await patchCaBundle(client, setup.config!, certificate.caCert);
      if (patched > 0) deps.log(`webhook: set the CA bundle of ${setup.config}`);
      bundleSet = true;
    } catch (err) {
      deps.log(`webhook: ${(err as Error).message}; retrying in 10s`);
      timer = setTimeout(() => void setBundle(), 10_000);
    }
  };
  if (!bundleSet) await setBundle();
  return {
    server,
    notReady: () =>
      !server.listening
        ? 'the webhook does not listen'
        : bundleSet
          ? undefined
          : `the CA bundle of ${setup.config} is not set`,
    stop: async () => {
      clearTimeout(timer);
      await server.stop();
    },
  };
}
