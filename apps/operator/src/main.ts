import { Controller } from './controller/controller';
import { DirectPodAccess, ProxyPodAccess } from './controller/pod-access';
import { Reconciler } from './controller/reconciler';
import { KubeClient, loadKubeConfig } from './kube/client';
import { discoverCapabilities } from './kube/discovery';
import { parseOperatorArgs, USAGE } from './args';

// `npm run operator -- --kubeconfig=FILE`: runs the LogService controller until SIGTERM/SIGINT.
async function main(argv: string[]): Promise<number> {
  const parsed = parseOperatorArgs(argv);
  if ('error' in parsed) {
    process.stderr.write(`error: ${parsed.error}\n${USAGE}`);
    return 2;
  }
  if (parsed.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const log = (message: string) =>
    process.stderr.write(`${new Date().toISOString()} logsvc-operator: ${message}\n`);
  const client = new KubeClient(await loadKubeConfig(parsed.kubeconfig));
  const capabilities = await discoverCapabilities(client);
  log(`PodDisruptionBudgets as ${capabilities.pdbApiVersion}`);
  const pods =
    parsed.podAccess === 'direct' ? new DirectPodAccess(client) : new ProxyPodAccess(client);
  const reconciler = new Reconciler({ client, pods, capabilities, log });
  const controller = new Controller(client, reconciler, {
    namespace: parsed.namespace,
    resyncMs: parsed.resyncMs,
    workers: 2,
    log,
  });
  controller.start();
  log(`watching LogServices in ${parsed.namespace ?? 'all namespaces'}`);
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  log('stopping');
  await controller.stop();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`fatal: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
