// The operator's e2e on a real control plane, one after another in this one file: each starts
// its own control plane (in its describe's beforeAll) and stops it before the next starts, so
// no two run at once, while the other e2e files run in the second worker beside the whole
// chain (tools/scripts/test-sequencer.mjs starts this file first). Longest first.
import './failover.cases';
import './zones.cases';
import './tls.cases';
import './rules.cases';
import './ui-status.cases';
