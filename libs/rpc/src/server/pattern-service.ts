import type { UntypedServiceImplementation } from '@grpc/grpc-js';
import type { PatternIngesterClient } from '@logsvc/pattern';
import { PATTERN_SERVICE } from '../services';
import { decodePatternQuery, encodePatternSeries } from '../wire/pattern';
import { decodePushRequest } from '../wire/push';
import { PUSH_RESPONSE } from '../wire/messages';
import { decodeRequest, unaryHandler, type RpcLogger } from './handler';

const EMPTY_PUSH_RESPONSE = PUSH_RESPONSE.encode({
  appended: '0',
  appendedBytes: '0',
  duplicates: '0',
  errors: [],
});

/** `logproto.Pattern` over this process's pattern ingester. */
export function patternImplementation(
  ingester: PatternIngesterClient,
  logger: RpcLogger,
): UntypedServiceImplementation {
  return {
    Push: unaryHandler(PATTERN_SERVICE.Push.path, logger, async (tenant, request) => {
      const push = decodeRequest(PATTERN_SERVICE.Push.path, () => decodePushRequest(request));
      await ingester.push(tenant, push.streams);
      return EMPTY_PUSH_RESPONSE;
    }),
    Query: unaryHandler(PATTERN_SERVICE.Query.path, logger, async (tenant, request) => {
      const query = decodeRequest(PATTERN_SERVICE.Query.path, () => decodePatternQuery(request));
      return encodePatternSeries(await ingester.query(tenant, query));
    }),
  };
}
