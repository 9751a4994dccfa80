import type { IndexBytes } from '../middleware/query-frontend';
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

/**
 * Shard sizing through the queue: `index/stats` of each selector, answered by a querier
 * (the frontend process has no index of its own).
 */
export function remoteIndexBytes(queue: JobQueue, signal?: AbortSignal): IndexBytes {
  return async (tenants, selectors, fromNs, throughNs) => {
    let bytes = 0;
    for (const selector of selectors) {
      const params = new URLSearchParams({
        query: selector.text,
        start: `${fromNs}`,
        end: `${throughNs}`,
      });
      const answer = await queue.submit(
        tenants.join('|'),
        [],
        {
          method: 'GET',
          url: `/loki/api/v1/index/stats?${params}`,
          headers: { 'x-scope-orgid': tenants.join('|') },
          body: Buffer.alloc(0),
        },
        signal ?? new AbortController().signal,
      );
      if (answer.status !== 200) return 0;
      const stats = JSON.parse(answer.body.toString('utf8')) as { bytes?: number };
      bytes += stats.bytes ?? 0;
    }
    return bytes;
  };
}
