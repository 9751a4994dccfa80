import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const ROLLOUT_PHASES = [
  'Idle',
  'Replacing',
  'Waiting',
  'Halted',
  'Blocked',
  'Paused',
] as const;
export type RolloutPhase = (typeof ROLLOUT_PHASES)[number];

const CONTROLLER = 'logservice';

/**
 * The operator's metrics, named as controller-runtime names them (so dashboards for Go
 * operators work), plus the rollout phase of each LogService.
 */
export class OperatorMetrics {
  readonly registry = new Registry();
  private readonly reconciles = new Counter({
    name: 'controller_runtime_reconcile_total',
    help: 'Total number of reconciliations per controller.',
    labelNames: ['controller', 'result'],
    registers: [this.registry],
  });
  private readonly errors = new Counter({
    name: 'controller_runtime_reconcile_errors_total',
    help: 'Total number of reconciliation errors per controller.',
    labelNames: ['controller'],
    registers: [this.registry],
  });
  private readonly durations = new Histogram({
    name: 'controller_runtime_reconcile_time_seconds',
    help: 'Length of time per reconciliation per controller.',
    labelNames: ['controller'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });
  private readonly webhook = new Counter({
    name: 'controller_runtime_webhook_requests_total',
    help: 'Total number of admission requests by HTTP status code.',
    labelNames: ['webhook', 'code'],
    registers: [this.registry],
  });
  private readonly phase = new Gauge({
    name: 'logsvc_operator_rollout_phase',
    help: 'The rollout phase of each LogService: 1 for the current phase, 0 for the others (Blocked: the spec or a check before apply stopped it; Paused: spec.paused).',
    labelNames: ['namespace', 'name', 'phase'],
    registers: [this.registry],
  });
  private readonly leader = new Gauge({
    name: 'leader_election_master_status',
    help: 'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master.',
    labelNames: ['name'],
    registers: [this.registry],
  });

  constructor(options: { readonly processMetrics?: boolean } = {}) {
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }

  reconciled(result: 'success' | 'error' | 'requeue_after', seconds: number): void {
    this.reconciles.inc({ controller: CONTROLLER, result });
    if (result === 'error') this.errors.inc({ controller: CONTROLLER });
    this.durations.observe({ controller: CONTROLLER }, seconds);
  }

  rolloutPhase(namespace: string, name: string, phase: RolloutPhase | undefined): void {
    for (const p of ROLLOUT_PHASES) {
      if (phase === undefined) this.phase.remove({ namespace, name, phase: p });
      else this.phase.set({ namespace, name, phase: p }, p === phase ? 1 : 0);
    }
  }

  webhookRequest(code: number): void {
    this.webhook.inc({ webhook: '/validate-logsvc-io-v1alpha1-logservice', code: String(code) });
  }

  leading(name: string, leader: boolean): void {
    this.leader.set({ name }, leader ? 1 : 0);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
