import type { KubeClient } from '../kube/client';
import { KubeError } from '../kube/client';
import { certificateFits, selfSignedCertificate, type ServingCertificate } from './certificates';

interface SecretObject {
  metadata: { name: string; resourceVersion?: string };
  data?: Record<string, string>;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const unb64 = (s: string | undefined) =>
  s === undefined ? undefined : Buffer.from(s, 'base64').toString('utf8');

function fromSecret(secret: SecretObject | undefined): ServingCertificate | undefined {
  const caCert = unb64(secret?.data?.['ca.crt']);
  const cert = unb64(secret?.data?.['tls.crt']);
  const key = unb64(secret?.data?.['tls.key']);
  return caCert && cert && key ? { caCert, cert, key } : undefined;
}

/**
 * The webhook's certificate, kept in a Secret so that every replica serves the same one:
 * read it, or (missing, expiring within a month, or for other host names) make a self-signed
 * one and write it. Two replicas racing: the second write fails on its precondition and
 * that replica takes what the first wrote.
 */
export async function ensureWebhookSecret(
  client: KubeClient,
  namespace: string,
  name: string,
  hosts: readonly string[],
): Promise<ServingCertificate> {
  const path = `/api/v1/namespaces/${namespace}/secrets/${encodeURIComponent(name)}`;
  for (let attempt = 0; attempt < 3; attempt++) {
    const secret = await client.get<SecretObject>(path);
    const kept = fromSecret(secret);
    if (kept !== undefined && certificateFits(kept.cert, hosts)) return kept;
    const made = selfSignedCertificate(hosts);
    const body = {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/tls',
      metadata: {
        name,
        namespace,
        labels: { 'app.kubernetes.io/name': 'logsvc-operator' },
        ...(secret?.metadata.resourceVersion !== undefined
          ? { resourceVersion: secret.metadata.resourceVersion }
          : {}),
      },
      data: { 'ca.crt': b64(made.caCert), 'tls.crt': b64(made.cert), 'tls.key': b64(made.key) },
    };
    try {
      if (secret === undefined)
        await client.call('POST', `/api/v1/namespaces/${namespace}/secrets`, body);
      else await client.call('PUT', path, body);
      return made;
    } catch (err) {
      // Another replica wrote first (409 AlreadyExists or Conflict): read what it wrote.
      if (!(err instanceof KubeError) || err.status !== 409) throw err;
    }
  }
  throw new Error(
    `secret ${namespace}/${name}: kept changing while the webhook certificate was written`,
  );
}

/**
 * Sets the CA bundle of every webhook of a ValidatingWebhookConfiguration to `caPem` (JSON
 * patch of the entries that differ; nothing when all match).
 */
export async function patchCaBundle(client: KubeClient, configName: string, caPem: string) {
  const path = `/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/${encodeURIComponent(configName)}`;
  const config = await client.get<{ webhooks?: { clientConfig?: { caBundle?: string } }[] }>(path);
  if (config === undefined)
    throw new Error(`ValidatingWebhookConfiguration ${configName} does not exist`);
  const bundle = b64(caPem);
  const ops = (config.webhooks ?? []).flatMap((w, i) =>
    w.clientConfig?.caBundle === bundle
      ? []
      : [{ op: 'add', path: `/webhooks/${i}/clientConfig/caBundle`, value: bundle }],
  );
  if (ops.length > 0) await client.call('PATCH', path, ops, 'application/json-patch+json');
  return ops.length;
}
