// Prints `N passed, N failed` from a vitest JSON report; exits 1 on failures or a missing report.
/* global process, console */
import { readFileSync } from 'node:fs';

const file = process.argv[2];
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (err) {
  console.log(`0 passed, 0 failed (no test report: ${err.message})`);
  process.exit(1);
}
// A suite that fails to load has no failed tests but still fails the run; count it once.
const brokenSuites = (report.testResults ?? []).filter(
  (s) => s.status === 'failed' && !(s.assertionResults ?? []).some((a) => a.status === 'failed'),
).length;
const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + brokenSuites;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || report.success === false ? 1 : 0);
