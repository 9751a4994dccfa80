import type {
  Downstream,
  DownstreamOptions,
  JobQueue,
  SubQuery,
  SubQueryResult,
} from '../downstream';
import { readSubQueryAnswer, subQueryJob } from './sub-query-job';

/** Sub-queries through the fair queue to querier processes, as HTTP jobs. */
export class RemoteDownstream implements Downstream {
  constructor(private readonly queue: JobQueue) {}

  async run(query: SubQuery, options: DownstreamOptions): Promise<SubQueryResult> {
    const answer = await this.queue.submit(
      query.tenants.join('|'),
      options.actorPath ?? [],
      subQueryJob(query),
      options.signal,
    );
    return readSubQueryAnswer(answer);
  }
}
