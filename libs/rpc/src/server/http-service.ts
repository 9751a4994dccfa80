import type { UntypedServiceImplementation } from '@grpc/grpc-js';
import { HTTPGRPC_SERVICE } from '../services';
import { decodeHttpRequest, encodeHttpResponse, type HttpHandler } from '../wire/http-job';
import { decodeRequest, unaryHandler, type RpcLogger } from './handler';

/**
 * `httpgrpc.HTTP/Handle`, answered by `execute` (a query frontend's entry points): what a
 * ruler in `remote` evaluation mode sends a query frontend. The tenant comes with the call's
 * metadata, as Loki's ruler sends it (and in the request's `X-Scope-OrgID`).
 */
export function httpImplementation(
  execute: HttpHandler,
  logger: RpcLogger,
): UntypedServiceImplementation {
  const path = HTTPGRPC_SERVICE.Handle.path;
  return {
    Handle: unaryHandler(path, logger, async (tenant, request) => {
      const job = decodeRequest(path, () => decodeHttpRequest(request));
      return encodeHttpResponse(await execute(tenant, job, new AbortController().signal));
    }),
  };
}
