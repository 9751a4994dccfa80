import { BaseSequencer } from 'vitest/node';

/**
 * The e2e files run two at a time (two workers). The operator's e2e on a real control plane
 * are the longest and mostly wait; two of them at once would each start a control plane, a
 * node agent and a loaded LogService on the same two cores. So the longest one goes first and
 * the other e2e files run beside it, and the remaining operator files come last, where they
 * pair with each other's waits rather than with the CPU-heavy cluster tests.
 */
export default class TestSequencer extends BaseSequencer {
  /** @param {import('vitest/node').TestSpecification[]} files */
  async sort(files) {
    const sorted = await super.sort(files);
    /** @param {import('vitest/node').TestSpecification} f */
    const isE2e = (f) => f.project.name === 'e2e';
    /** @param {import('vitest/node').TestSpecification} f */
    const isOperator = (f) => f.moduleId.includes('/e2e/operator/');
    const operator = sorted.filter((f) => isE2e(f) && isOperator(f));
    const first = operator.filter((f) => f.moduleId.endsWith('/failover.spec.ts'));
    const rest = operator.filter((f) => !first.includes(f));
    return [
      ...sorted.filter((f) => !isE2e(f)),
      ...first,
      ...sorted.filter((f) => isE2e(f) && !isOperator(f)),
      ...rest,
    ];
  }
}
