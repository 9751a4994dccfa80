// `@logsvc/storage/testing`: S3- and Azure-compatible servers (s3rver, Azurite) in child
// processes, for tests of other projects. Not part of the build.
export { type S3rverProcess, startS3rver } from './s3rver-process';
export { AZURITE_ACCOUNT, AZURITE_KEY, type AzuriteProcess, startAzurite } from './azurite-process';
