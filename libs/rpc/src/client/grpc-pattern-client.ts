import type { PushStream } from '@logsvc/api';
import type { PatternIngesterClient, PatternQuery, PatternSeries } from '@logsvc/pattern';
import { PATTERN_SERVICE } from '../services';
import { decodePatternSeries, encodePatternQuery } from '../wire/pattern';
import { encodePushRequest } from '../wire/push';
import { decoded } from './decoded';
import { RpcChannel, type RpcClientOptions } from './rpc-channel';

/** One remote pattern ingester, reached over gRPC (`logproto.Pattern`). */
export class GrpcPatternClient implements PatternIngesterClient {
  private readonly channel: RpcChannel;

  constructor(
    readonly address: string,
    options: RpcClientOptions = {},
  ) {
    this.channel = new RpcChannel(address, PATTERN_SERVICE, 'Pattern', options);
  }

  async push(tenant: string, streams: readonly PushStream[]): Promise<void> {
    await this.channel.unary(
      PATTERN_SERVICE.Push,
      tenant,
      encodePushRequest({ streams: [...streams] }),
    );
  }

  async query(tenant: string, query: PatternQuery): Promise<PatternSeries[]> {
    const response = await this.channel.unary(
      PATTERN_SERVICE.Query,
      tenant,
      encodePatternQuery(query),
    );
    return decoded('patterns', () => decodePatternSeries(response));
  }

  close(): void {
    this.channel.close();
  }
}
