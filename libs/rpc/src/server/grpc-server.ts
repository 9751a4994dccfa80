import { Server } from '@grpc/grpc-js';
import { DEFAULT_QUERY_BATCH_BYTES, type GrpcService } from './grpc-services';
import { type ServerTlsFiles, serverCredentials } from '../tls';

export interface GrpcServerOptions {
  readonly host: string;
  /** 0: any free port (the one taken is in the result). */
  readonly port: number;
  readonly maxRecvMsgSize: number;
  readonly maxSendMsgSize: number;
  /** TLS (mutual with `requireClientCert`); absent: plaintext. */
  readonly tls?: ServerTlsFiles;
  /** Concurrent streams (calls) per client connection; 0: no limit. */
  readonly maxConcurrentStreams?: number;
  /** The services to serve (each component's, see grpc-services.ts). */
  readonly services: readonly GrpcService[];
}

export interface RunningGrpcServer {
  readonly port: number;
  /**
   * Stops taking calls and resolves once the calls in flight are done, or after `graceMs`,
   * when those still running are cancelled.
   */
  stop(graceMs: number): Promise<void>;
}

export { DEFAULT_QUERY_BATCH_BYTES };

/** Starts the gRPC server of this process's components; services not given are UNIMPLEMENTED. */
export async function startGrpcServer(options: GrpcServerOptions): Promise<RunningGrpcServer> {
  const creds = serverCredentials(options.tls);
  const server = new Server({
    'grpc.max_receive_message_length': options.maxRecvMsgSize,
    'grpc.max_send_message_length': options.maxSendMsgSize,
    ...(options.maxConcurrentStreams
      ? { 'grpc.max_concurrent_streams': options.maxConcurrentStreams }
      : {}),
  });
  for (const service of options.services) {
    server.addService(service.definition, service.implementation);
  }
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${hostPort(options.host)}:${options.port}`, creds, (err, bound) =>
      err ? reject(err) : resolve(bound),
    ),
  );
  let stopped: Promise<void> | undefined;
  return {
    port,
    stop: (graceMs) => (stopped ??= shutdown(server, graceMs)),
  };
}

/** An IPv6 address in brackets, as the address syntax needs. */
function hostPort(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function shutdown(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.forceShutdown(), Math.max(0, graceMs));
    server.tryShutdown(() => {
      clearTimeout(force);
      resolve();
    });
  });
}
