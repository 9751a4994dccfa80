import { HTTPGRPC_SERVICE } from '../services';
import {
  decodeHttpResponse,
  encodeHttpRequest,
  type HttpRequestMessage,
  type HttpResponseMessage,
} from '../wire/http-job';
import { decoded } from './decoded';
import { RpcChannel, type RpcClientOptions } from './rpc-channel';

/**
 * Sends HTTP requests whole over `httpgrpc.HTTP/Handle` (Loki's ruler to a query frontend in
 * `remote` evaluation mode). The address may carry gRPC's `dns:///` scheme, as Loki asks for.
 */
export class GrpcHttpClient {
  private readonly channel: RpcChannel;

  constructor(address: string, options: RpcClientOptions = {}) {
    this.channel = new RpcChannel(address, HTTPGRPC_SERVICE, 'HTTP', options);
  }

  async handle(
    tenant: string,
    request: HttpRequestMessage,
    signal?: AbortSignal,
  ): Promise<HttpResponseMessage> {
    const response = await this.channel.unary(
      HTTPGRPC_SERVICE.Handle,
      tenant,
      encodeHttpRequest(request),
      signal,
    );
    return decoded('http', () => decodeHttpResponse(response));
  }

  close(): void {
    this.channel.close();
  }
}
