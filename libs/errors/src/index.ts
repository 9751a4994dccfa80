export { ERROR_KINDS, HTTP_STATUS_OF_KIND, type ErrorKind } from './kinds';
export { LogsvcError, asLogsvcError, kindOf, type LogsvcErrorOptions } from './logsvc-error';
