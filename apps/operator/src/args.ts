export interface OperatorArgs {
  readonly kubeconfig?: string;
  readonly namespace?: string;
  readonly resyncMs: number;
  /** How the operator reaches logsvc pods: through the API server, or at their IPs. */
  readonly podAccess: 'proxy' | 'direct';
  readonly help: boolean;
}

export const USAGE = `usage: logsvc-operator [--kubeconfig=FILE] [--namespace=NS] [--resync=SECONDS]
                       [--pod-access=proxy|direct]
  --kubeconfig  credentials file; without it, the pod's service account (in-cluster)
  --namespace   watch only this namespace (default: all)
  --resync      reconcile every LogService at least this often (default 30)
  --pod-access  reach logsvc pods (/ring, prepare_shutdown) through the API server's pod
                proxy (default) or directly at the pod IP
`;

/** Flags of the operator: `--name=value` or `--name value`. */
export function parseOperatorArgs(argv: readonly string[]): OperatorArgs | { error: string } {
  const out: {
    kubeconfig?: string;
    namespace?: string;
    resyncMs: number;
    podAccess: 'proxy' | 'direct';
    help: boolean;
  } = { resyncMs: 30_000, podAccess: 'proxy', help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      out.help = true;
      continue;
    }
    const m = /^--?([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m) return { error: `unexpected argument ${arg}` };
    const value = m[2] ?? argv[++i];
    if (value === undefined || value === '') return { error: `--${m[1]} needs a value` };
    switch (m[1]) {
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
      default:
        return { error: `unknown flag --${m[1]}` };
    }
  }
  return out;
}
