// `@logsvc/operator/testing`: the operator's controller parts and the control-plane harness,
// for the e2e rollout test (mapped by vitest.config.ts and tsconfig.check.json).
export { Controller } from '../../src/controller/controller';
export { DirectPodAccess } from '../../src/controller/pod-access';
export { Reconciler } from '../../src/controller/reconciler';
export type { KubeClient } from '../../src/kube/client';
export { discoverCapabilities } from '../../src/kube/discovery';
export {
  installCrd,
  LS,
  NS,
  REPO_ROOT,
  skipMessage,
  startControlPlane,
  waitFor,
  type ControlPlane,
} from './control-plane';
export { provisionClaims } from './volumes';
export { markNodeReady } from './nodes';
