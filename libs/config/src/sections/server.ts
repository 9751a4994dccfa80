import { bool, duration, int, oneOf, section, size, str } from '../fields';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** `server`: listeners, timeouts and logging (dskit server.Config names). */
export const serverSection = section({
  // Empty means every interface, as in Loki.
  http_listen_address: str(''),
  http_listen_port: int(3100),
  grpc_listen_address: str(''),
  grpc_listen_port: int(9095),
  http_server_read_timeout: duration(30_000),
  http_server_write_timeout: duration(30_000),
  http_server_idle_timeout: duration(120_000),
  graceful_shutdown_timeout: duration(30_000),
  grpc_server_max_recv_msg_size: size(4 * 1024 * 1024),
  grpc_server_max_send_msg_size: size(4 * 1024 * 1024),
  log_level: oneOf(LOG_LEVELS, 'info'),
  log_request_headers: bool(false),
});
