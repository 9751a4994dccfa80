// `@logsvc/logql/testing`: the engine's conformance harness, for other libraries' tests (the
// frontend runs the same corpus through its split and shard path). Not part of the build.
import { join } from 'node:path';

export { parseFixture, type FixtureEval, type FixtureEntry } from '../engine/conformance/fixture';
export { EPOCH_NS, linesMatch, renderActual } from '../engine/conformance/render';
export { sourceOf } from '../engine/conformance/run-eval';

/** The folder of the conformance corpus (`*.lqt` files). */
export const CONFORMANCE_TESTDATA = join(__dirname, '..', 'engine', 'conformance', 'testdata');
