import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { Controller } from './controller/controller';
import { DirectPodAccess, ProxyPodAccess } from './controller/pod-access';
import { directEtcdAccess, proxyEtcdAccess } from './etcd/members';
import { Reconciler } from './controller/reconciler';
import { KubeClient, loadKubeConfig } from './kube/client';
import { discoverCapabilities } from './kube/discovery';
import { LeaderElector } from './kube/leader';
import { OWN_CRDS, upgradeCrd } from './kube/crds';
import { EventRecorder } from './observe/events';
import { ProbeServer } from './observe/http';
import { OperatorMetrics } from './observe/metrics';
import { startWebhook, type RunningWebhook } from './webhook/start';
import { parseOperatorArgs, USAGE } from './args';

const SA_NAMESPACE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

function podNamespace(): string | undefined {
  if (process.env.POD_NAMESPACE) return process.env.POD_NAMESPACE;
  try {
    return readFileSync(SA_NAMESPACE, 'utf8').trim();
  } catch {
    return undefined;
  }
}

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
  const identity = process.env.POD_NAME || `${hostname()}_${randomBytes(4).toString('hex')}`;
  const client = new KubeClient(await loadKubeConfig(parsed.kubeconfig));
  if (parsed.upgradeCrds) {
    const { version } = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    for (const crd of OWN_CRDS) await upgradeCrd(client, version, log, crd);
  }
  const capabilities = await discoverCapabilities(client);
  log(`PodDisruptionBudgets as ${capabilities.pdbApiVersion}`);
  const metrics = new OperatorMetrics();
  const events = new EventRecorder(client, {
    component: 'logsvc-operator',
    instance: identity,
    log,
  });

  const w = parsed.webhook;
  let webhook: RunningWebhook | undefined;
  if (w.certDir !== undefined || w.secret !== undefined)
    webhook = await startWebhook(client, w, { metrics, events, log });
  const probes =
    parsed.httpPort === 0
      ? undefined
      : new ProbeServer({ metrics, port: parsed.httpPort, notReady: () => webhook?.notReady() });
  await probes?.start();
  if (probes !== undefined) log(`/metrics, /healthz and /readyz on :${probes.port}`);

  const pods =
    parsed.podAccess === 'direct' ? new DirectPodAccess(client) : new ProxyPodAccess(client);
  const reconciler = new Reconciler({
    client,
    pods,
    etcd: parsed.podAccess === 'direct' ? directEtcdAccess(client) : proxyEtcdAccess(client),
    capabilities,
    log,
    events,
    metrics,
    statusHeartbeatMs: parsed.resyncMs,
  });
  const controller = new Controller(client, reconciler, {
    namespace: parsed.namespace,
    resyncMs: parsed.resyncMs,
    workers: 2,
    log,
    metrics,
  });
  const startController = () => {
    controller.start();
    log(`watching LogServices in ${parsed.namespace ?? 'all namespaces'}`);
  };

  const stopping = new AbortController();
  const signalled = new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  }).then(() => stopping.abort());

  let lost = false;
  if (parsed.leaderElection.enabled) {
    const namespace = parsed.leaderElection.namespace ?? podNamespace();
    if (namespace === undefined) {
      log('--leader-elect needs --leader-election-namespace outside a pod');
      return 2;
    }
    const elector = new LeaderElector(client, {
      namespace,
      name: parsed.leaderElection.id,
      identity,
      log,
    });
    metrics.leading(parsed.leaderElection.id, false);
    log(
      `leader election: ${identity} campaigns for Lease ${namespace}/${parsed.leaderElection.id}`,
    );
    await elector.run(
      stopping.signal,
      () => {
        metrics.leading(parsed.leaderElection.id, true);
        startController();
      },
      () => {
        metrics.leading(parsed.leaderElection.id, false);
        lost = !stopping.signal.aborted;
      },
    );
  } else {
    startController();
    await signalled;
  }
  log(lost ? 'leader election lost: stopping' : 'stopping');
  await controller.stop();
  await events.flush();
  await webhook?.stop();
  await probes?.stop();
  // As controller-runtime: a replica that lost the Lease exits, and is restarted as a candidate.
  return lost ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`fatal: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
