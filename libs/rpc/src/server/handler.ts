import type {
  handleServerStreamingCall,
  handleUnaryCall,
  Metadata,
  ServerErrorResponse,
  ServerWritableStream,
} from '@grpc/grpc-js';
import { asLogsvcError, LogsvcError } from '@logsvc/errors';
import { errorToStatus } from '../error-status';
import { TENANT_HEADER } from '../services';

/** The part of a pino-style logger the server uses. */
export interface RpcLogger {
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export const SILENT_RPC_LOGGER: RpcLogger = { warn: () => {}, error: () => {} };

/** The tenant of a call (`x-scope-orgid`), as Loki's gRPC middleware reads it. */
export function tenantOf(metadata: Metadata): string {
  const value = metadata.get(TENANT_HEADER)[0];
  if (typeof value !== 'string' || value === '') throw new LogsvcError('bad_request', 'no org id');
  return value;
}

/** A request decoded; bytes that are not the message are the caller's fault (400). */
export function decodeRequest<T>(path: string, decode: () => T): T {
  try {
    return decode();
  } catch (err) {
    throw asLogsvcError(err, 'bad_request', `malformed ${path} request: `);
  }
}

function reported(err: unknown, logger: RpcLogger, path: string): ServerErrorResponse {
  const st = errorToStatus(err);
  if (!(err instanceof LogsvcError)) logger.error({ err, path }, 'rpc handler failed');
  return Object.assign(new Error(st.details), st);
}

/**
 * A unary handler around `answer`: whatever it throws (or a request it cannot decode) becomes
 * the call's status, never an exception out of grpc-js.
 */
export function unaryHandler(
  path: string,
  logger: RpcLogger,
  answer: (tenant: string, request: Buffer) => Promise<Buffer>,
): handleUnaryCall<Buffer, Buffer> {
  return (call, callback) => {
    let result: Promise<Buffer>;
    try {
      result = answer(tenantOf(call.metadata), call.request);
    } catch (err) {
      result = Promise.reject(err);
    }
    result.then(
      (response) => callback(null, response),
      (err: unknown) => callback(reported(err, logger, path)),
    );
  };
}

/**
 * A unary handler of a call about no one tenant (the request names none, as logsvc's
 * `Querier/Tenants`): as `unaryHandler`, without reading `x-scope-orgid`.
 */
export function clusterUnaryHandler(
  path: string,
  logger: RpcLogger,
  answer: (request: Buffer) => Promise<Buffer>,
): handleUnaryCall<Buffer, Buffer> {
  return (call, callback) => {
    answer(call.request).then(
      (response) => callback(null, response),
      (err: unknown) => callback(reported(err, logger, path)),
    );
  };
}

/** Sends one message of a server stream, waiting while the stream's buffer is full. */
export type SendMessage = (message: Buffer) => Promise<void>;

/**
 * A server-streaming handler around `answer`, which sends its messages through `send`. A client
 * that goes away ends `send` with a `canceled` error, so the answer stops early.
 */
export function serverStreamHandler(
  path: string,
  logger: RpcLogger,
  answer: (tenant: string, request: Buffer, send: SendMessage) => Promise<void>,
): handleServerStreamingCall<Buffer, Buffer> {
  return (call) => {
    const send = sender(call);
    let done: Promise<void>;
    try {
      done = answer(tenantOf(call.metadata), call.request, send);
    } catch (err) {
      done = Promise.reject(err);
    }
    done.then(
      () => {
        if (!call.cancelled) call.end();
      },
      (err: unknown) => {
        if (!call.cancelled) call.emit('error', reported(err, logger, path));
      },
    );
  };
}

function sender(call: ServerWritableStream<Buffer, Buffer>): SendMessage {
  return (message) => {
    if (call.cancelled || call.destroyed) {
      return Promise.reject(new LogsvcError('canceled', 'the client went away'));
    }
    if (call.write(message)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const done = (err?: Error): void => {
        call.off('drain', onDrain);
        call.off('cancelled', onCancel);
        call.off('close', onCancel);
        if (err) reject(err);
        else resolve();
      };
      const onDrain = (): void => done();
      const onCancel = (): void => done(new LogsvcError('canceled', 'the client went away'));
      call.on('drain', onDrain);
      call.on('cancelled', onCancel);
      call.on('close', onCancel);
    });
  };
}
