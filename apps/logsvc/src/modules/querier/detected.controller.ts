import { apiPaths } from '@logsvc/api';
import { type DetectedFieldsRequest, Querier } from '@logsvc/querier';
import { Controller, Inject, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GetOrPost } from '../../http/get-or-post';
import { TenantIds } from '../../http/tenancy';
import {
  JSON_CONTENT_TYPE,
  parseDetectedFieldsParams,
  parseDetectedLabelsParams,
  nowNs,
} from '@logsvc/query-codec';
import { clientSignal } from './client-signal';
import { requestReader } from './request-reader';

/**
 * Loki writes these answers with jsoniter's fastest config: no HTML escaping, empty lists and
 * a zero `limit` left out (`omitempty`), and a newline at the end.
 */
function send(reply: FastifyReply, body: Record<string, unknown>): FastifyReply {
  return reply.header('content-type', JSON_CONTENT_TYPE).send(JSON.stringify(body) + '\n');
}

/** What Grafana's Logs Drilldown asks: `detected_fields`, a field's values, `detected_labels`. */
@Controller()
export class DetectedController {
  constructor(@Inject(Querier) private readonly querier: Querier) {}

  @GetOrPost(apiPaths('detected_fields'))
  async fields(
    @TenantIds() tenants: string[],
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    const fieldRequest = this.fieldsRequest(tenants, request, reply);
    const fields = await this.querier.detectedFields(fieldRequest);
    if (fields.length === 0) return send(reply, {});
    return send(reply, { fields, limit: fieldRequest.limit });
  }

  @GetOrPost(apiPaths('detected_field_values'))
  async values(
    @TenantIds() tenants: string[],
    @Param('name') name: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    const fieldRequest = this.fieldsRequest(tenants, request, reply);
    const values = await this.querier.detectedFieldValues(fieldRequest, name);
    if (values.length === 0) return send(reply, {});
    return send(reply, { limit: fieldRequest.limit, values });
  }

  @GetOrPost(apiPaths('detected_labels'))
  async labels(
    @TenantIds() tenants: string[],
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    const params = parseDetectedLabelsParams(requestReader(request), nowNs());
    const detectedLabels = await this.querier.detectedLabels({ tenants, ...params });
    return send(reply, detectedLabels.length > 0 ? { detectedLabels } : {});
  }

  private fieldsRequest(
    tenants: string[],
    request: FastifyRequest,
    reply: FastifyReply,
  ): DetectedFieldsRequest {
    const params = parseDetectedFieldsParams(requestReader(request), nowNs());
    return { tenants, ...params, clientSignal: clientSignal(reply) };
  }
}
