import { decodeQueryAnswer } from '@logsvc/query-codec';
import type { IndexBytes } from '../middleware/query-frontend';
import type {
  Downstream,
  DownstreamOptions,
  JobQueue,
  SubQuery,
  SubQueryResult,
} from '../downstream';

/** Sub-queries through the fair queue to querier processes, as typed jobs. */
export class RemoteDownstream implements Downstream {
  constructor(private readonly queue: JobQueue) {}

  async run(query: SubQuery, options: DownstreamOptions): Promise<SubQueryResult> {
    const answer = await this.queue.submit(
      query.tenants.join('|'),
      options.actorPath ?? [],
      { kind: 'sub_query', query },
      options.signal,
    );
    return decodeQueryAnswer(answer.status, answer.body);
  }
}

/**
 * Shard sizing through the queue: `index/stats` of each selector, answered by a querier
 * (the frontend process has no index of its own). A failed answer counts 0 bytes.
 */
export function remoteIndexBytes(queue: JobQueue, signal?: AbortSignal): IndexBytes {
  return async (tenants, selectors, fromNs, throughNs) => {
    let bytes = 0;
    for (const selector of selectors) {
      const answer = await queue.submit(
        tenants.join('|'),
        [],
        {
          kind: 'index_stats',
          tenants,
          params: [
            ['query', selector.text],
            ['start', `${fromNs}`],
            ['end', `${throughNs}`],
          ],
          name: '',
          legacy: false,
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
