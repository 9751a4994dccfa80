import { describe, expect, it } from 'vitest';
import { parseOperatorArgs } from './args';

const defaults = {
  resyncMs: 30_000,
  podAccess: 'proxy',
  httpPort: 8080,
  webhook: { port: 9443, hosts: [] },
  leaderElection: { enabled: false, id: 'logsvc-operator' },
  upgradeCrds: false,
  help: false,
};

describe('parseOperatorArgs', () => {
  it('reads --kubeconfig, --namespace and --resync in both forms', () => {
    expect(
      parseOperatorArgs([
        '--kubeconfig=/k',
        '--namespace',
        'team-a',
        '--resync=5',
        '--pod-access=direct',
      ]),
    ).toEqual({
      ...defaults,
      kubeconfig: '/k',
      namespace: 'team-a',
      resyncMs: 5000,
      podAccess: 'direct',
    });
    expect(parseOperatorArgs([])).toEqual(defaults);
  });

  it('reads the webhook, probe and leader election flags', () => {
    expect(
      parseOperatorArgs([
        '--http-port=0',
        '--webhook-port=10443',
        '--webhook-secret=logsvc-system/webhook-tls',
        '--webhook-hosts=op.logsvc-system.svc,127.0.0.1',
        '--webhook-config=logsvc-operator',
        '--leader-elect',
        '--leader-election-namespace=logsvc-system',
        '--upgrade-crds',
      ]),
    ).toEqual({
      ...defaults,
      upgradeCrds: true,
      httpPort: 0,
      webhook: {
        port: 10443,
        secret: { namespace: 'logsvc-system', name: 'webhook-tls' },
        hosts: ['op.logsvc-system.svc', '127.0.0.1'],
        config: 'logsvc-operator',
      },
      leaderElection: { enabled: true, namespace: 'logsvc-system', id: 'logsvc-operator' },
    });
  });

  it.each([
    [['--kube=x'], 'unknown flag --kube'],
    [['--kubeconfig'], '--kubeconfig needs a value'],
    [['--resync=soon'], '--resync: expected a number of seconds, got soon'],
    [['stray'], 'unexpected argument stray'],
    [['--pod-access=ssh'], '--pod-access: expected proxy or direct, got ssh'],
    [['--http-port=http'], '--http-port: expected a port number, got http'],
    [['--webhook-secret=tls'], '--webhook-secret: expected NAMESPACE/NAME, got tls'],
    [['--webhook-secret=a/b'], '--webhook-secret needs --webhook-hosts'],
    [['--upgrade-crds=maybe'], '--upgrade-crds: expected true or false, got maybe'],
    [['--leader-elect=yes'], '--leader-elect: expected true or false, got yes'],
    [
      ['--webhook-cert-dir=/c', '--webhook-secret=a/b', '--webhook-hosts=x'],
      '--webhook-cert-dir and --webhook-secret exclude each other',
    ],
  ])('refuses %j', (argv, error) => {
    const parsed = parseOperatorArgs(argv);
    expect(parsed).toMatchObject({ error: expect.stringContaining(error) });
  });
});
