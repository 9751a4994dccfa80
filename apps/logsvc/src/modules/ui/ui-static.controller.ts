import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Controller, Get, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { httpError } from '../../http/plain-error';
import { DEFAULT_UI_DIR, readUiAsset } from './ui-assets';

/**
 * The admin UI's files under `/ui/` (built by `npm run build` into apps/admin-ui/dist), with
 * index.html for every page path of the single-page app. `LOGSVC_UI_DIR` points elsewhere.
 */
@Controller()
export class UiStaticController {
  private readonly dir = process.env.LOGSVC_UI_DIR ?? DEFAULT_UI_DIR;

  @Get('/ui')
  root(@Res() reply: FastifyReply): void {
    void reply.redirect('/ui/', 302);
  }

  @Get('/ui/*')
  async file(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    let pathname: string;
    try {
      pathname = decodeURIComponent((request.url ?? '').split('?')[0]);
    } catch {
      throw httpError(400, 'malformed path');
    }
    const asset = await readUiAsset(this.dir, pathname.slice('/ui/'.length));
    if (!asset) {
      if (!existsSync(join(this.dir, 'index.html')))
        throw httpError(404, `the admin UI is not built (no ${this.dir}): run npm run build`);
      throw httpError(404, '404 page not found');
    }
    void reply
      .code(200)
      .header('content-type', asset.contentType)
      .header('cache-control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
      .send(asset.body);
  }
}
