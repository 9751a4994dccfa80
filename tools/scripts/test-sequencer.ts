import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The e2e files run two at a time (two workers). The operator's e2e on a real control plane
 * are the longest and mostly wait; two of them at once would each start a control plane, a
 * node agent and a loaded LogService on the same two cores. So the longest one goes first and
 * the other e2e files run beside it, and the remaining operator files come last, where they
 * pair with each other's waits rather than with the CPU-heavy cluster tests.
 */
export default class TestSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isE2e = (f: TestSpecification) => f.project.name === 'e2e';
    const isOperator = (f: TestSpecification) => f.moduleId.includes('/e2e/operator/');
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
