// `@logsvc/storage/testing`: an S3-compatible server (s3rver) in a child process, for tests
// of other projects. Not part of the build.
export { type S3rverProcess, startS3rver } from './s3rver-process';
