import { apiPaths } from '@logsvc/api';
import { ReadApi } from '@logsvc/querier';
import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GetOrPost } from '../../http/get-or-post';
import { TenantIds } from '../../http/tenancy';
import { readReply } from './read-reply';

/** `index/stats`, `index/volume` and `index/volume_range`, GET or form POST. */
@Controller()
export class IndexController {
  constructor(@Inject(ReadApi) private readonly api: ReadApi) {}

  @GetOrPost(apiPaths('index_stats'))
  stats(@TenantIds() t: string[], @Req() q: FastifyRequest, @Res() r: FastifyReply) {
    return readReply(this.api, 'index_stats', t, q, r);
  }

  @GetOrPost(apiPaths('index_volume'))
  volume(@TenantIds() t: string[], @Req() q: FastifyRequest, @Res() r: FastifyReply) {
    return readReply(this.api, 'index_volume', t, q, r);
  }

  @GetOrPost(apiPaths('index_volume_range'))
  volumeRange(@TenantIds() t: string[], @Req() q: FastifyRequest, @Res() r: FastifyReply) {
    return readReply(this.api, 'index_volume_range', t, q, r);
  }
}
