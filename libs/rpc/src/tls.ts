import { readFileSync } from 'node:fs';
import {
  type ChannelCredentials,
  type ChannelOptions,
  credentials,
  ServerCredentials,
} from '@grpc/grpc-js';
import { LogsvcError } from '@logsvc/errors';

/**
 * TLS of a gRPC server (dskit's `grpc_tls_config`): its certificate and key, and with
 * `requireClientCert` mutual TLS, where a client must present a certificate that chains to
 * `clientCaFile` (or to the system's roots when empty).
 */
export interface ServerTlsFiles {
  readonly certFile: string;
  readonly keyFile: string;
  readonly requireClientCert: boolean;
  readonly clientCaFile: string;
}

/** TLS of a gRPC client (dskit's `grpc_client_config` `tls_*` fields); absent: plaintext. */
export interface ClientTlsFiles {
  /** A client certificate and key for mutual TLS; both or neither. */
  readonly certPath: string;
  readonly keyPath: string;
  /** CA the server's certificate must chain to; empty: the system's roots. */
  readonly caPath: string;
  /** Name expected on the server's certificate instead of the address's host. */
  readonly serverName: string;
  /** Accept any server certificate (for tests only). */
  readonly insecureSkipVerify: boolean;
}

/** The credentials of a gRPC server: plaintext without `tls`. Reads the files now. */
export function serverCredentials(tls: ServerTlsFiles | undefined): ServerCredentials {
  if (tls === undefined) return ServerCredentials.createInsecure();
  const ca = tls.clientCaFile === '' ? null : read(tls.clientCaFile, 'client CA');
  return ServerCredentials.createSsl(
    ca,
    [{ cert_chain: read(tls.certFile, 'certificate'), private_key: read(tls.keyFile, 'key') }],
    tls.requireClientCert,
  );
}

/**
 * The credentials of a gRPC client and the channel options they need (the server name
 * override): plaintext without `tls`. Reads the files now.
 */
export function clientCredentials(tls: ClientTlsFiles | undefined): {
  credentials: ChannelCredentials;
  options: ChannelOptions;
} {
  if (tls === undefined) return { credentials: credentials.createInsecure(), options: {} };
  const ca = tls.caPath === '' ? null : read(tls.caPath, 'CA');
  const key = tls.keyPath === '' ? null : read(tls.keyPath, 'key');
  const cert = tls.certPath === '' ? null : read(tls.certPath, 'certificate');
  const verify = tls.insecureSkipVerify
    ? { rejectUnauthorized: false, checkServerIdentity: () => undefined }
    : {};
  return {
    credentials: credentials.createSsl(ca, key, cert, verify),
    options:
      tls.serverName === ''
        ? {}
        : {
            'grpc.ssl_target_name_override': tls.serverName,
            'grpc.default_authority': tls.serverName,
          },
  };
}

function read(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new LogsvcError(
      'internal',
      `cannot read the TLS ${what} file ${path}: ${(err as Error).message}`,
    );
  }
}
