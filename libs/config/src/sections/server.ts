import { bool, duration, int, oneOf, section, size, str, flag } from '../fields';
import { serverTlsSection } from './tls';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** `server`: listeners, timeouts and logging (dskit server.Config names). */
export const serverSection = section({
  // Empty means every interface, as in Loki.
  http_listen_address: flag('server.http-listen-address', str('')),
  http_listen_port: flag('server.http-listen-port', int(3100)),
  grpc_listen_address: flag('server.grpc-listen-address', str('')),
  grpc_listen_port: flag('server.grpc-listen-port', int(9095)),
  http_server_read_timeout: flag('server.http-read-timeout', duration(30_000)),
  http_server_write_timeout: flag('server.http-write-timeout', duration(30_000)),
  http_server_idle_timeout: flag('server.http-idle-timeout', duration(120_000)),
  graceful_shutdown_timeout: flag('server.graceful-shutdown-timeout', duration(30_000)),
  grpc_server_max_recv_msg_size: flag('server.grpc-max-recv-msg-size-bytes', size(4 * 1024 * 1024)),
  grpc_server_max_send_msg_size: flag('server.grpc-max-send-msg-size-bytes', size(4 * 1024 * 1024)),
  grpc_server_max_concurrent_streams: flag('server.grpc-max-concurrent-streams', int(100)),
  // TLS of the gRPC server, mutual with client_auth_type RequireAndVerifyClientCert.
  grpc_tls_config: serverTlsSection('server.grpc-tls'),
  // Accepted at its default only (see unsupported.ts): the HTTP port serves plain HTTP.
  http_tls_config: serverTlsSection('server.http-tls'),
  log_level: flag('log.level', oneOf(LOG_LEVELS, 'info')),
  log_request_headers: flag('server.log-request-headers', bool(false)),
});
