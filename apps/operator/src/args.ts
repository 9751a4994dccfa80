export interface OperatorArgs {
  readonly kubeconfig?: string;
  readonly namespace?: string;
  readonly resyncMs: number;
  /** How the operator reaches logsvc pods: through the API server, or at their IPs. */
  readonly podAccess: 'proxy' | 'direct';
  /** /metrics, /healthz, /readyz; 0: not served. */
  readonly httpPort: number;
  readonly webhook: {
    readonly port: number;
    /** tls.crt and tls.key from this directory (a mounted Secret). */
    readonly certDir?: string;
    /** Or a self-signed certificate kept in this Secret (`namespace/name`). */
    readonly secret?: { readonly namespace: string; readonly name: string };
    /** Host names (or IPs) of the self-signed certificate. */
    readonly hosts: readonly string[];
    /** ValidatingWebhookConfiguration whose caBundle the operator sets. */
    readonly config?: string;
  };
  readonly leaderElection: {
    readonly enabled: boolean;
    readonly namespace?: string;
    readonly id: string;
  };
  /** Apply the operator's own LogService CRD at start (guarded by version). */
  readonly upgradeCrds: boolean;
  readonly help: boolean;
}

export const USAGE = `usage: logsvc-operator [--kubeconfig=FILE] [--namespace=NS] [--resync=SECONDS]
                       [--pod-access=proxy|direct] [--http-port=N]
                       [--webhook-port=N] [--webhook-cert-dir=DIR | --webhook-secret=NS/NAME
                        --webhook-hosts=NAME,...] [--webhook-config=NAME]
                       [--leader-elect] [--leader-election-namespace=NS]
                       [--leader-election-id=NAME] [--upgrade-crds]
  --kubeconfig    credentials file; without it, the pod's service account (in-cluster)
  --namespace     watch only this namespace (default: all)
  --resync        reconcile every LogService at least this often (default 30)
  --pod-access    reach logsvc pods (/ring, prepare_shutdown) and the managed etcd's member
                  API through the API server's pod proxy (default) or directly at the pod IP
  --http-port     serve /metrics, /healthz and /readyz here (default 8080; 0: off)
  --webhook-port  serve the validating admission webhook here over HTTPS (default 9443)
  --webhook-cert-dir  the webhook's tls.crt and tls.key (a mounted Secret)
  --webhook-secret    or: keep a self-signed CA and certificate in this Secret (made when
                      missing or expiring), for --webhook-hosts (DNS names or IPs)
  --webhook-config    set the caBundle of this ValidatingWebhookConfiguration to the CA
                  Without --webhook-cert-dir and --webhook-secret no webhook is served.
  --leader-elect  run the controller only while holding a coordination.k8s.io Lease
                  (--leader-election-id, default logsvc-operator, in
                  --leader-election-namespace, default the pod's namespace)
  --upgrade-crds  at start, server-side apply this operator's CRDs (LogService,
                  LogServiceRule), each unless an operator of a newer version applied
                  it (needs RBAC on the CRDs)
`;

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends object ? Mutable<T[K]> : T[K] };

const BOOLEAN_FLAGS = new Set(['leader-elect', 'upgrade-crds']);

function port(flag: string, value: string): number | { error: string } {
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 && n <= 65535
    ? n
    : { error: `--${flag}: expected a port number, got ${value}` };
}

/** Flags of the operator: `--name=value` or `--name value`. */
export function parseOperatorArgs(argv: readonly string[]): OperatorArgs | { error: string } {
  const out: Mutable<OperatorArgs> = {
    resyncMs: 30_000,
    podAccess: 'proxy',
    httpPort: 8080,
    webhook: { port: 9443, hosts: [] },
    leaderElection: { enabled: false, id: 'logsvc-operator' },
    upgradeCrds: false,
    help: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      out.help = true;
      continue;
    }
    const m = /^--?([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m) return { error: `unexpected argument ${arg}` };
    const flag = m[1];
    const value = m[2] ?? (BOOLEAN_FLAGS.has(flag) ? 'true' : argv[++i]);
    if (value === undefined || value === '') return { error: `--${flag} needs a value` };
    switch (flag) {
      case 'kubeconfig':
        out.kubeconfig = value;
        break;
      case 'namespace':
        out.namespace = value;
        break;
      case 'resync': {
        const seconds = Number(value);
        if (!Number.isFinite(seconds) || seconds <= 0)
          return { error: `--resync: expected a number of seconds, got ${value}` };
        out.resyncMs = seconds * 1000;
        break;
      }
      case 'pod-access':
        if (value !== 'proxy' && value !== 'direct')
          return { error: `--pod-access: expected proxy or direct, got ${value}` };
        out.podAccess = value;
        break;
      case 'http-port':
      case 'webhook-port': {
        const n = port(flag, value);
        if (typeof n !== 'number') return n;
        if (flag === 'http-port') out.httpPort = n;
        else out.webhook.port = n;
        break;
      }
      case 'webhook-cert-dir':
        out.webhook.certDir = value;
        break;
      case 'webhook-secret': {
        const [namespace, name, rest] = value.split('/');
        if (!namespace || !name || rest !== undefined)
          return { error: `--webhook-secret: expected NAMESPACE/NAME, got ${value}` };
        out.webhook.secret = { namespace, name };
        break;
      }
      case 'webhook-hosts':
        out.webhook.hosts = value.split(',').filter((h) => h !== '');
        break;
      case 'webhook-config':
        out.webhook.config = value;
        break;
      case 'leader-elect':
        if (value !== 'true' && value !== 'false')
          return { error: `--leader-elect: expected true or false, got ${value}` };
        out.leaderElection.enabled = value === 'true';
        break;
      case 'upgrade-crds':
        if (value !== 'true' && value !== 'false')
          return { error: `--upgrade-crds: expected true or false, got ${value}` };
        out.upgradeCrds = value === 'true';
        break;
      case 'leader-election-namespace':
        out.leaderElection.namespace = value;
        break;
      case 'leader-election-id':
        out.leaderElection.id = value;
        break;
      default:
        return { error: `unknown flag --${flag}` };
    }
  }
  if (out.webhook.certDir !== undefined && out.webhook.secret !== undefined)
    return { error: '--webhook-cert-dir and --webhook-secret exclude each other' };
  if (out.webhook.secret !== undefined && out.webhook.hosts.length === 0)
    return { error: '--webhook-secret needs --webhook-hosts (the names the API server calls)' };
  return out;
}
