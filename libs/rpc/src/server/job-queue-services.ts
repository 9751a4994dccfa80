// The scheduler's (or a frontend's) side of the query jobs: the querier loop that hands jobs
// to querier workers, the shutdown notice, and the frontend's Submit.
import type {
  handleBidiStreamingCall,
  handleUnaryCall,
  ServerDuplexStream,
  UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { LogsvcError } from '@logsvc/errors';
import type { Assignment, DispatchConnection, JobDispatcher, JobQueue } from '@logsvc/frontend';
import { errorToStatus } from '../error-status';
import { SCHEDULER_FOR_FRONTEND_SERVICE } from '../services';
import {
  decodeJobRequest,
  encodeJobResult,
  jobToWire,
  NOTIFY_SHUTDOWN,
  QUERIER_TO_SCHEDULER,
  resultFromWire,
  SCHEDULER_TO_QUERIER,
} from '../wire/query-job';
import { decodeRequest, tenantOf, type RpcLogger } from './handler';

type Duplex = ServerDuplexStream<Buffer, Buffer>;

function failCall(call: Duplex, err: unknown): void {
  const st = errorToStatus(err);
  call.emit('error', Object.assign(new Error(st.details), st));
}

/**
 * One querier worker's stream: its first message names the querier; then the dispatcher's jobs
 * go out one at a time, each answered on the stream before the next is sent. A job whose caller
 * went away is followed by a `cancel` message. When the stream breaks (the querier was killed,
 * its connection dropped) the job it held goes back to the queue for another querier.
 */
export function querierLoopHandler(
  dispatcher: JobDispatcher,
  logger: RpcLogger,
): handleBidiStreamingCall<Buffer, Buffer> {
  return (call) => {
    const closed = new AbortController();
    let conn: DispatchConnection | undefined;
    let current: Assignment | undefined;
    const end = (): void => {
      if (closed.signal.aborted) return;
      closed.abort();
      if (current !== undefined && !current.signal.aborted) {
        logger.warn(
          { querier: conn?.querierId, jobId: current.id, tenant: current.tenant },
          'querier connection ended while it ran a job: the job goes to another querier',
        );
      }
      conn?.close();
    };
    call.on('cancelled', end);
    call.on('error', end);
    call.on('close', end);
    call.on('end', () => {
      end();
      if (!call.cancelled) call.end();
    });

    const sendNext = async (): Promise<void> => {
      if (conn === undefined) return;
      let a: Assignment;
      try {
        a = await conn.next(closed.signal);
      } catch (err) {
        // The dispatcher stopped: the worker reconnects (to the next scheduler).
        if (!closed.signal.aborted) {
          failCall(call, err);
          end();
        }
        return;
      }
      current = a;
      call.write(
        SCHEDULER_TO_QUERIER.encode({
          jobId: String(a.id),
          tenant: a.tenant,
          actorPath: [...a.actorPath],
          job: jobToWire(a.job),
          cancel: false,
        }),
      );
      a.signal.addEventListener(
        'abort',
        () => {
          if (current !== a || closed.signal.aborted) return;
          call.write(
            SCHEDULER_TO_QUERIER.encode({
              jobId: String(a.id),
              tenant: a.tenant,
              actorPath: [],
              job: null,
              cancel: true,
            }),
          );
        },
        { once: true },
      );
    };

    call.on('data', (bytes: Buffer) => {
      if (closed.signal.aborted) return;
      let message;
      try {
        message = QUERIER_TO_SCHEDULER.decode(bytes);
      } catch (err) {
        failCall(call, new LogsvcError('bad_request', `malformed querier message: ${String(err)}`));
        return end();
      }
      if (conn === undefined) {
        if (message.querierId === '') {
          failCall(call, new LogsvcError('bad_request', 'the first message must name the querier'));
          return end();
        }
        conn = dispatcher.connect(message.querierId);
        void sendNext();
        return;
      }
      const a = current;
      if (a === undefined || String(a.id) !== message.jobId) {
        logger.warn({ jobId: message.jobId }, 'querier answered a job it does not hold');
        return;
      }
      current = undefined;
      try {
        conn.complete(a.id, resultFromWire(message.answer));
      } catch (err) {
        failCall(call, new LogsvcError('bad_request', `malformed answer: ${String(err)}`));
        return end();
      }
      void sendNext();
    });
  };
}

/** The notice of a querier shutting down: it is given no more jobs. No tenant. */
function notifyShutdownHandler(dispatcher: JobDispatcher): handleUnaryCall<Buffer, Buffer> {
  return (call, callback) => {
    try {
      const { querierId } = NOTIFY_SHUTDOWN.decode(call.request);
      dispatcher.notifyQuerierShutdown(querierId);
      callback(null, Buffer.alloc(0));
    } catch (err) {
      const st = errorToStatus(new LogsvcError('bad_request', String(err)));
      callback(Object.assign(new Error(st.details), st));
    }
  };
}

/** `SchedulerForQuerier` and the frontend's `Frontend` over one dispatcher. */
export function schedulerForQuerierImplementation(
  dispatcher: JobDispatcher,
  logger: RpcLogger,
): UntypedServiceImplementation {
  return {
    QuerierLoop: querierLoopHandler(dispatcher, logger),
    NotifyQuerierShutdown: notifyShutdownHandler(dispatcher),
  };
}

export function frontendImplementation(
  dispatcher: JobDispatcher,
  logger: RpcLogger,
): UntypedServiceImplementation {
  return {
    Process: querierLoopHandler(dispatcher, logger),
    NotifyClientShutdown: notifyShutdownHandler(dispatcher),
  };
}

/**
 * `SchedulerForFrontend/Submit`: queues the frontend's job and answers with the querier's
 * answer; the frontend cancelling the call cancels the job. Queue errors (429 "too many
 * outstanding requests") cross as the call's status.
 */
export function schedulerForFrontendImplementation(
  queue: JobQueue,
  logger: RpcLogger,
): UntypedServiceImplementation {
  const path = SCHEDULER_FOR_FRONTEND_SERVICE.Submit.path;
  const submit: handleUnaryCall<Buffer, Buffer> = (call, callback) => {
    const cancel = new AbortController();
    call.on('cancelled', () => cancel.abort());
    const run = async (): Promise<Buffer> => {
      const tenant = tenantOf(call.metadata);
      const { actorPath, job } = decodeRequest(path, () => decodeJobRequest(call.request));
      return encodeJobResult(await queue.submit(tenant, actorPath, job, cancel.signal));
    };
    run().then(
      (response) => callback(null, response),
      (err: unknown) => {
        if (!(err instanceof LogsvcError)) logger.error({ err, path }, 'rpc handler failed');
        const st = errorToStatus(err);
        callback(Object.assign(new Error(st.details), st));
      },
    );
  };
  return { Submit: submit };
}
