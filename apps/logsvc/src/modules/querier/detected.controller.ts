import { apiPaths } from '@logsvc/api';
import { ReadApi } from '@logsvc/querier';
import { Controller, Inject, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GetOrPost } from '../../http/get-or-post';
import { TenantIds } from '../../http/tenancy';
import { readReply } from './read-reply';

/** What Grafana's Logs Drilldown asks: `detected_fields`, a field's values, `detected_labels`. */
@Controller()
export class DetectedController {
  constructor(@Inject(ReadApi) private readonly api: ReadApi) {}

  @GetOrPost(apiPaths('detected_fields'))
  fields(@TenantIds() t: string[], @Req() q: FastifyRequest, @Res() r: FastifyReply) {
    return readReply(this.api, 'detected_fields', t, q, r);
  }

  @GetOrPost(apiPaths('detected_field_values'))
  values(
    @TenantIds() t: string[],
    @Param('name') name: string,
    @Req() q: FastifyRequest,
    @Res() r: FastifyReply,
  ) {
    return readReply(this.api, 'detected_field_values', t, q, r, name);
  }

  @GetOrPost(apiPaths('detected_labels'))
  labels(@TenantIds() t: string[], @Req() q: FastifyRequest, @Res() r: FastifyReply) {
    return readReply(this.api, 'detected_labels', t, q, r);
  }
}
