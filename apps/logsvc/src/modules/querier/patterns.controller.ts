import { apiPaths } from '@logsvc/api';
import { ReadApi } from '@logsvc/querier';
import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GetOrPost } from '../../http/get-or-post';
import { TenantId } from '../../http/tenancy';
import { readReply } from './read-reply';

/**
 * `GET /patterns` (Loki's PatternsHandler): the patterns the pattern ingesters found in the
 * selected streams, with their line counts per step. Without `pattern_ingester.enabled` the
 * querier has no pattern querier and answers 404 with an empty message, as Loki.
 */
@Controller()
export class PatternsController {
  constructor(@Inject(ReadApi) private readonly api: ReadApi) {}

  @GetOrPost(apiPaths('patterns'))
  route(@TenantId() tenant: string, @Req() q: FastifyRequest, @Res() r: FastifyReply) {
    return readReply(this.api, 'patterns', [tenant], q, r);
  }
}
