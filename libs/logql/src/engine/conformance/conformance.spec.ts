import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFixture } from './fixture';
import { linesMatch, renderActual, renderExpected } from './render';
import { runEval, sourceOf } from './run-eval';

const dir = join(__dirname, 'testdata');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.lqt'))
  .sort();

describe.each(files)('%s', (file) => {
  const scenarios = parseFixture(file, readFileSync(join(dir, file), 'utf8'));
  describe.each(scenarios.map((s, i) => ({ ...s, name: `#${i + 1} ${s.title}` })))(
    '$name',
    (scenario) => {
      const source = sourceOf(scenario.entries);
      it.each(scenario.evals.map((ev) => ({ ...ev, name: `line ${ev.lineNo}: ${ev.query}` })))(
        '$name',
        async (ev) => {
          const expected = renderExpected(ev);
          const actual = renderActual(ev, await runEval(ev, source));
          const same =
            expected.length === actual.length &&
            expected.every((line, i) => linesMatch(line, actual[i]));
          // On a mismatch, show both sides as text: the difference is the report.
          expect(same, `expected:\n${expected.join('\n')}\nactual:\n${actual.join('\n')}\n`).toBe(
            true,
          );
        },
      );
    },
  );
});
