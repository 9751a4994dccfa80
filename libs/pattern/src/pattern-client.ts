import type { PushStream } from '@logsvc/api';
import type { PatternQuery, PatternSeries } from './pattern-query';

/**
 * A pattern ingester as its callers see it (Loki's `logproto.Pattern`): the tee pushes lines,
 * the querier asks for series. The in-process PatternIngester and the gRPC client both fit.
 */
export interface PatternIngesterClient {
  push(tenant: string, streams: readonly PushStream[]): Promise<void>;
  query(tenant: string, query: PatternQuery): Promise<PatternSeries[]>;
}
