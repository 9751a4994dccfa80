import { apiPaths } from '@logsvc/api';
import type { Config } from '@logsvc/config';
import { All, Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONFIG } from '../../tokens';

/** `common.compactor_address` as a base URL (Loki's are written `http://host:port`). */
export function compactorBaseUrl(address: string): string {
  const base = /^https?:\/\//.test(address) ? address : `http://${address}`;
  return base.replace(/\/+$/, '');
}

/** Request headers the compactor needs: the tenant, and what the body is. */
const FORWARDED = ['x-scope-orgid', 'content-type', 'authorization'];

/**
 * The delete API in a process without the compactor, when `common.compactor_address` names
 * one: each request goes to the compactor there as it came (method, path, query, tenant), and
 * its answer comes back unchanged, so queriers and the admin UI can take delete requests.
 */
@Controller()
export class DeleteProxyController {
  private readonly base: string;

  constructor(@Inject(CONFIG) config: Config) {
    this.base = compactorBaseUrl(config.common.compactor_address);
  }

  @All([...apiPaths('delete'), ...apiPaths('delete_progress')])
  async forward(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const headers: Record<string, string> = {};
    for (const name of FORWARDED) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    let answer: Response;
    try {
      answer = await fetch(`${this.base}${request.url}`, {
        method: request.method,
        headers,
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      void reply
        .code(502)
        .header('content-type', 'text/plain; charset=utf-8')
        .send(`compactor at ${this.base} unreachable: ${why}\n`);
      return;
    }
    const body = Buffer.from(await answer.arrayBuffer());
    const type = answer.headers.get('content-type');
    if (type !== null) void reply.header('content-type', type);
    void reply.code(answer.status).send(body);
  }
}
