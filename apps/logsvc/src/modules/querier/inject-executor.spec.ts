import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { injectExecutor } from './inject-executor';

describe('injectExecutor', () => {
  const app = Fastify();
  let closedByCancel = false;
  app.get('/echo', async (request) => ({
    tenant: request.headers['x-scope-orgid'],
    query: request.query,
  }));
  app.post('/body', async (request, reply) => {
    void reply.header('x-seen', 'yes').type('text/plain');
    return `got ${String(request.body)}`;
  });
  app.get('/slow', (_request, reply) => {
    // As the querier's handlers do (clientSignal): a closed answer means the client left.
    reply.raw.once('close', () => {
      closedByCancel = true;
      void reply.send('stopped');
    });
  });
  const sut = injectExecutor(app);
  afterAll(() => app.close());

  it("runs a job on the process's own routes with the job's headers and body", async () => {
    const get = await sut(
      'acme',
      { method: 'GET', url: '/echo?x=1', headers: {}, body: Buffer.alloc(0) },
      new AbortController().signal,
    );
    expect(get.status).toBe(200);
    expect(get.headers['content-type']).toContain('application/json');
    expect(get.headers['content-length']).toBeUndefined();
    expect(JSON.parse(get.body.toString())).toEqual({ tenant: 'acme', query: { x: '1' } });

    const post = await sut(
      'acme',
      {
        method: 'POST',
        url: '/body',
        headers: { 'content-type': 'text/plain', 'x-scope-orgid': 'other' },
        body: Buffer.from('bytes'),
      },
      new AbortController().signal,
    );
    expect(post).toMatchObject({ status: 200, headers: { 'x-seen': 'yes' } });
    expect(post.body.toString()).toBe('got bytes');
  });

  it('closes the answer of a cancelled job, which the handler takes for a client gone', async () => {
    const ac = new AbortController();
    const running = sut(
      'acme',
      { method: 'GET', url: '/slow', headers: {}, body: Buffer.alloc(0) },
      ac.signal,
    );
    await new Promise((r) => setTimeout(r, 20));
    ac.abort();
    expect((await running).status).toBe(499);
    await expect.poll(() => closedByCancel).toBe(true);
  });
});
