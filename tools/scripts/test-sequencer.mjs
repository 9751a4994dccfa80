import { BaseSequencer } from 'vitest/node';

/**
 * The e2e files run two at a time (two workers). The operator's e2e on a real control plane
 * are the longest and mostly wait; two of them at once would each start a control plane, a
 * node agent and a loaded LogService on the same two cores. So they are one file,
 * `e2e/operator/operator.spec.ts`, which runs them one after another; it goes first, and the
 * other e2e files share the second worker, then both, as the chain ends.
 */
export default class TestSequencer extends BaseSequencer {
  /** @param {import('vitest/node').TestSpecification[]} files */
  async sort(files) {
    const sorted = await super.sort(files);
    /** @param {import('vitest/node').TestSpecification} f */
    const isE2e = (f) => f.project.name === 'e2e';
    /** @param {import('vitest/node').TestSpecification} f */
    const isOperator = (f) => f.moduleId.includes('/e2e/operator/');
    return [
      ...sorted.filter((f) => !isE2e(f)),
      ...sorted.filter((f) => isE2e(f) && isOperator(f)),
      ...sorted.filter((f) => isE2e(f) && !isOperator(f)),
    ];
  }
}
