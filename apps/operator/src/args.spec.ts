import { describe, expect, it } from 'vitest';
import { parseOperatorArgs } from './args';

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
      kubeconfig: '/k',
      namespace: 'team-a',
      resyncMs: 5000,
      podAccess: 'direct',
      help: false,
    });
    expect(parseOperatorArgs([])).toEqual({ resyncMs: 30_000, podAccess: 'proxy', help: false });
  });

  it.each([
    [['--kube=x'], 'unknown flag --kube'],
    [['--kubeconfig'], '--kubeconfig needs a value'],
    [['--resync=soon'], '--resync: expected a number of seconds, got soon'],
    [['stray'], 'unexpected argument stray'],
    [['--pod-access=ssh'], '--pod-access: expected proxy or direct, got ssh'],
  ])('refuses %j', (argv, error) => {
    expect(parseOperatorArgs(argv)).toEqual({ error });
  });
});
