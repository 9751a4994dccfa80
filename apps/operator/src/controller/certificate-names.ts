import { X509Certificate } from 'node:crypto';
import type { LogServiceSpec } from '@logsvc/operator-api';
import { etcdHeadlessName, etcdPeerHost, tlsServerName } from '@logsvc/operator-render';

/** The DNS names of a certificate's subjectAltName; an Error when it is not a PEM certificate. */
export function certificateDnsNames(pem: string): string[] | Error {
  try {
    const san = new X509Certificate(pem).subjectAltName ?? '';
    return san
      .split(', ')
      .filter((entry) => entry.startsWith('DNS:'))
      .map((entry) => entry.slice(4).toLowerCase());
  } catch (err) {
    return err as Error;
  }
}

/**
 * Whether a DNS SAN covers `host` as Go's crypto/x509 (etcd's and the pods' TLS) matches it:
 * the same number of labels, a `*` standing for the first one only.
 */
export function covers(san: string, host: string): boolean {
  const pattern = san.split('.');
  const labels = host.toLowerCase().split('.');
  return (
    pattern.length === labels.length &&
    pattern.every((label, i) => label === labels[i] || (i === 0 && label === '*'))
  );
}

/**
 * The names the LogService's certificate must cover and does not: `<name>-grpc` (every gRPC
 * client expects it) and, with TLS between the managed etcd's members, each member's peer name
 * (dialled by the other members) and a wildcard of the members' names in the cluster's DNS
 * (etcd looks a connecting member's IP up to a name and matches that to its certificate).
 */
export function missingNames(
  dnsNames: readonly string[],
  owner: { name: string; namespace: string },
  spec: LogServiceSpec,
  peerTls: boolean,
): string[] {
  const wanted = [tlsServerName(owner.name)];
  if (peerTls)
    for (let i = 0; i < spec.ring.managed.replicas; i++) wanted.push(etcdPeerHost(owner, i));
  const missing = wanted.filter((host) => !dnsNames.some((san) => covers(san, host)));
  const domain = `.${etcdHeadlessName(owner)}.${owner.namespace}.svc.`;
  if (peerTls && !dnsNames.some((san) => san.startsWith(`*${domain}`)))
    missing.push(`*${domain}cluster.local`);
  return missing;
}
