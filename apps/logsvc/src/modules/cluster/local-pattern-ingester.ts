import type { PushStream } from '@logsvc/api';
import { LogsvcError } from '@logsvc/errors';
import type {
  PatternIngester,
  PatternIngesterClient,
  PatternQuery,
  PatternSeries,
} from '@logsvc/pattern';

/**
 * This process's pattern ingester, once its component has started (`attach`): what the tee,
 * the querier and the gRPC server reach in-process. Before that, or in a process without one,
 * calls fail as `unavailable`.
 */
export class LocalPatternIngester implements PatternIngesterClient {
  ingester: PatternIngester | undefined;

  attach(ingester: PatternIngester | undefined): void {
    this.ingester = ingester;
  }

  push(tenant: string, streams: readonly PushStream[]): Promise<void> {
    return this.running().push(tenant, streams);
  }

  query(tenant: string, query: PatternQuery): Promise<PatternSeries[]> {
    return this.running().query(tenant, query);
  }

  private running(): PatternIngester {
    if (!this.ingester) throw new LogsvcError('unavailable', 'pattern ingester not running');
    return this.ingester;
  }
}
