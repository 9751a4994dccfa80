// `@logsvc/rpc/testing`: certificates for the TLS tests of this library and of e2e. Not part of
// the build.
export { makeCa, signCert, writeExtensions } from './test-pki';
