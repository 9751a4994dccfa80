import {
  makeGenericClientConstructor,
  Metadata,
  type Client,
  type MethodDefinition,
  type ServiceDefinition,
  type ServiceError,
} from '@grpc/grpc-js';
import { LogsvcError } from '@logsvc/errors';
import { errorFromStatus } from '../error-status';
import { TENANT_HEADER } from '../services';
import { type ClientTlsFiles, clientCredentials } from '../tls';

export interface RpcClientOptions {
  /** Deadline of every unary call, from its start; default 5 s (Loki's `remote_timeout`). */
  readonly timeoutMs?: number;
  /**
   * Deadline of a streamed answer (an ingester's part of a query), which may take as long as
   * the query itself; default 60 s.
   */
  readonly streamTimeoutMs?: number;
  /** Default 100 MiB, as Loki's `max_recv_msg_size` for ingester clients. */
  readonly maxRecvMsgSize?: number;
  /** Default 100 MiB. */
  readonly maxSendMsgSize?: number;
  /** TLS to the server; absent: plaintext. */
  readonly tls?: ClientTlsFiles;
}

const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_STREAM_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_MSG_SIZE = 100 << 20;

type RawMethod = MethodDefinition<Buffer, Buffer>;

/**
 * One connection to one address for one service, whose calls take the tenant and raw message
 * bytes and fail with LogsvcErrors. Calls do not wait for the connection to be ready: an address
 * that refuses fails at once, one that does not answer at the deadline, both as `unavailable`.
 */
export class RpcChannel {
  private readonly client: Client;
  private readonly timeoutMs: number;
  private readonly streamTimeoutMs: number;

  constructor(
    readonly address: string,
    service: ServiceDefinition,
    serviceName: string,
    options: RpcClientOptions = {},
  ) {
    const Ctor = makeGenericClientConstructor(service, serviceName);
    const tls = clientCredentials(options.tls);
    this.client = new Ctor(address, tls.credentials, {
      ...tls.options,
      'grpc.max_receive_message_length': options.maxRecvMsgSize ?? DEFAULT_MAX_MSG_SIZE,
      'grpc.max_send_message_length': options.maxSendMsgSize ?? DEFAULT_MAX_MSG_SIZE,
    });
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.streamTimeoutMs = options.streamTimeoutMs ?? DEFAULT_STREAM_TIMEOUT_MS;
  }

  /** A unary call; `signal` cancels it (rejecting with kind `canceled`). */
  unary(method: RawMethod, tenant: string, request: Buffer, signal?: AbortSignal): Promise<Buffer> {
    if (signal?.aborted === true) {
      return Promise.reject(new LogsvcError('canceled', 'context canceled'));
    }
    return new Promise((resolve, reject) => {
      const onAbort = (): void => call.cancel();
      const call = this.client.makeUnaryRequest(
        method.path,
        method.requestSerialize,
        method.responseDeserialize,
        request,
        this.metadata(tenant),
        { deadline: Date.now() + this.timeoutMs },
        (err: ServiceError | null, response?: Buffer) => {
          signal?.removeEventListener('abort', onAbort);
          if (signal?.aborted === true) reject(new LogsvcError('canceled', 'context canceled'));
          else if (err) reject(errorFromStatus(err, this.address));
          else resolve(response ?? EMPTY);
        },
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Calls a server-streaming method, handing each message to `onMessage` as it arrives. */
  serverStream(
    method: RawMethod,
    tenant: string,
    request: Buffer,
    onMessage: (message: Buffer) => void,
  ): Promise<void> {
    return new Promise((resolve, reject) => {
      const call = this.client.makeServerStreamRequest(
        method.path,
        method.requestSerialize,
        method.responseDeserialize,
        request,
        this.metadata(tenant),
        { deadline: Date.now() + this.streamTimeoutMs },
      );
      let failed = false;
      call.on('data', (message: Buffer) => {
        if (failed) return;
        try {
          onMessage(message);
        } catch (err) {
          // A message we cannot read ends the call; its error is the one reported.
          failed = true;
          reject(err);
          call.cancel();
        }
      });
      call.on('error', (err: ServiceError) => {
        if (!failed) reject(errorFromStatus(err, this.address));
        failed = true;
      });
      call.on('end', () => {
        if (!failed) resolve();
      });
    });
  }

  /**
   * Opens a server stream with no deadline, which runs until `cancel` or until the server ends
   * it. Resolves at its first message (the server's "in place"), which is not passed on; later
   * messages go to `onMessage`. `onEnd` hears of an end the caller did not ask for.
   */
  openStream(
    method: RawMethod,
    tenant: string,
    request: Buffer,
    onMessage: (message: Buffer) => void,
    onEnd: (err: Error) => void,
  ): Promise<{ cancel(): void }> {
    return new Promise((resolve, reject) => {
      const call = this.client.makeServerStreamRequest(
        method.path,
        method.requestSerialize,
        method.responseDeserialize,
        request,
        this.metadata(tenant),
        {},
      );
      let opened = false;
      let over = false;
      const handle = {
        cancel: () => {
          if (over) return;
          over = true;
          call.cancel();
        },
      };
      const finish = (err: Error): void => {
        if (over) return;
        over = true;
        if (opened) onEnd(err);
        else reject(err);
      };
      // The server says nothing until it is in place; a dead address fails at once.
      call.on('data', (message: Buffer) => {
        if (over) return;
        if (!opened) {
          opened = true;
          resolve(handle);
          return;
        }
        try {
          onMessage(message);
        } catch (err) {
          finish(err as Error);
          call.cancel();
        }
      });
      call.on('error', (err: ServiceError) => finish(errorFromStatus(err, this.address)));
      call.on('end', () => finish(new Error(`${this.address} ended the stream`)));
    });
  }

  close(): void {
    this.client.close();
  }

  private metadata(tenant: string): Metadata {
    const metadata = new Metadata({ waitForReady: false });
    // A call about no one tenant (`Querier/Tenants`) sends none.
    if (tenant !== '') metadata.set(TENANT_HEADER, tenant);
    return metadata;
  }
}

const EMPTY = Buffer.alloc(0);
