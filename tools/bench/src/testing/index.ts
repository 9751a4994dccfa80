// `@logsvc/bench/testing`: the benchmarks' generators and server processes, for the e2e tests
// and the specs that reuse them (mapped by vitest.config.ts and tsconfig.check.json).
export { LogGenerator, logfmtLine, Prng } from '../gen';
export { TimeFormatter } from '../gen/time-format';
export { prepareClientBodies } from '../ingest/batches';
export { parseOptions } from '../ingest/options';
export { SERVER_MAIN, ServerProcess, type ServerProcessOptions } from '../ingest/server-process';
export { freePort } from '@logsvc/ring/testing';
export { LIFTED_LIMITS } from '../server-flags';
