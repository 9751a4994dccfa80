import { apiPaths, deprecatedApiPaths } from '@logsvc/api';
import { ReadApi } from '@logsvc/querier';
import { Controller, Inject, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GetOrPost } from '../../http/get-or-post';
import { TenantIds } from '../../http/tenancy';
import { readReply } from './read-reply';

/** `labels`, `label/<name>/values` and `series`, GET or form POST. */
@Controller()
export class MetadataController {
  constructor(@Inject(ReadApi) private readonly api: ReadApi) {}

  @GetOrPost([...apiPaths('labels'), ...deprecatedApiPaths('labels')])
  labels(@TenantIds() t: string[], @Req() q: FastifyRequest, @Res() r: FastifyReply) {
    return readReply(this.api, 'labels', t, q, r);
  }

  @GetOrPost([...apiPaths('label_values'), ...deprecatedApiPaths('label_values')])
  values(
    @TenantIds() t: string[],
    @Param('name') name: string,
    @Req() q: FastifyRequest,
    @Res() r: FastifyReply,
  ) {
    return readReply(this.api, 'label_values', t, q, r, name);
  }

  @GetOrPost([...apiPaths('series'), ...deprecatedApiPaths('series')])
  series(@TenantIds() t: string[], @Req() q: FastifyRequest, @Res() r: FastifyReply) {
    return readReply(this.api, 'series', t, q, r);
  }
}
