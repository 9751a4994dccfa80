import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TenantId, TenantIds } from '../src/http/tenancy';
import { type TestServer, startTestServer } from './harness';

/** Probe routes mounted only in these tests, to exercise the shared HTTP plumbing. */
@Controller('probe')
class ProbeController {
  @Post('single')
  single(@TenantId() tenant: string): string {
    return tenant;
  }

  @Get('multi')
  multi(@TenantIds() tenants: string[]): string {
    return tenants.join(',');
  }

  @Post('body')
  body(@Body() body: unknown): { kind: string; size?: number; value?: unknown } {
    if (Buffer.isBuffer(body)) return { kind: 'buffer', size: body.length };
    return { kind: typeof body, value: body };
  }

  @Get('boom')
  boom(): string {
    throw new Error('disk on fire');
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

const orgId = (id: string) => ({ headers: { 'X-Scope-OrgID': id } });

describe('tenancy with auth_enabled: true', () => {
  let sut: TestServer;
  beforeAll(async () => {
    sut = await startTestServer({
      extraModules: [ProbeModule],
      config: {
        querier: { multi_tenant_queries_enabled: true },
        distributor: { max_recv_msg_size: '1KB' },
      },
    });
  });
  afterAll(() => sut.close());

  const post = (path: string, init: RequestInit = {}) =>
    fetch(sut.url + path, { method: 'POST', ...init });

  it('resolves X-Scope-OrgID', async () => {
    const res = await post('/probe/single', orgId('team-a'));
    expect(res.status).toBe(201);
    expect(await res.text()).toBe('team-a');
  });

  it('answers 401 "no org id" without the header', async () => {
    const res = await post('/probe/single');
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe('no org id\n');
  });

  it.each([
    ['../etc', "tenant ID '../etc' contains unsupported character '/'"],
    ['..', "tenant ID is '.' or '..'"],
    ['a b', "tenant ID 'a b' contains unsupported character ' '"],
    ['x'.repeat(151), 'tenant ID is too long: max 150 characters'],
    [
      'team.logsvc-tmp',
      "tenant ID 'team.logsvc-tmp' ends with '.logsvc-tmp', which logsvc reserves for temporary files",
    ],
  ])('rejects tenant ID %j with 400', async (id, reason) => {
    const res = await post('/probe/single', orgId(id));
    expect(res.status).toBe(400);
    expect(await res.text()).toBe(`${reason}\n`);
  });

  it('rejects several tenants where one is required (push, tail)', async () => {
    const res = await post('/probe/single', orgId('a|b'));
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('multiple org IDs present\n');
  });

  it('accepts several tenants for query endpoints when multi-tenant queries are enabled', async () => {
    const res = await fetch(`${sut.url}/probe/multi`, orgId('b|a'));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('a,b');
  });

  it('passes protobuf, JSON and unknown bodies as Buffers and parses forms', async () => {
    const proto = await post('/probe/body', {
      headers: { 'content-type': 'application/x-protobuf' },
      body: new Uint8Array([1, 2, 3]),
    });
    expect(await proto.json()).toEqual({ kind: 'buffer', size: 3 });
    const json = await post('/probe/body', {
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(await json.json()).toEqual({ kind: 'buffer', size: 7 });
    const other = await post('/probe/body', {
      headers: { 'content-type': 'application/weird' },
      body: 'xy',
    });
    expect(await other.json()).toEqual({ kind: 'buffer', size: 2 });
    const form = await post('/probe/body', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'query=%7Ba%3D%22b%22%7D&match[]=x&match[]=y',
    });
    expect(await form.json()).toEqual({
      kind: 'object',
      value: { query: '{a="b"}', 'match[]': ['x', 'y'] },
    });
  });

  it('refuses a body over distributor.max_recv_msg_size with 413', async () => {
    const res = await post('/probe/body', {
      headers: { 'content-type': 'application/x-protobuf' },
      body: new Uint8Array(4096),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('request body too large: the limit is 1024 bytes\n');
  });

  it('accepts URLs and headers up to 1 MiB, as Go servers do, and answers 431 beyond', async () => {
    // Grafana sends long LogQL queries in the URL of a GET.
    const long = await fetch(`${sut.url}/probe/multi?q=${'x'.repeat(200_000)}`, {
      headers: { 'X-Scope-OrgID': 'team-a' },
    });
    expect(long.status).toBe(200);
    const tooLong = await fetch(`${sut.url}/probe/multi?q=${'x'.repeat(1_100_000)}`, {
      headers: { 'X-Scope-OrgID': 'team-a' },
    });
    expect(tooLong.status).toBe(431);
    expect(tooLong.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await tooLong.text()).toBe('431 Request Header Fields Too Large');
    expect((await fetch(`${sut.url}/ready`)).status).toBe(200);
  });

  it('answers an unexpected error with 500, logs it, and keeps serving', async () => {
    const res = await fetch(`${sut.url}/probe/boom`);
    expect(res.status).toBe(500);
    expect(await res.text()).toBe('internal server error\n');
    expect(
      sut.logs.some(
        (l) => l.msg === 'request failed' && JSON.stringify(l.err).includes('disk on fire'),
      ),
    ).toBe(true);
    expect((await fetch(`${sut.url}/ready`)).status).toBe(200);
  });
});

describe('tenancy with auth_enabled: false', () => {
  let sut: TestServer;
  beforeAll(async () => {
    sut = await startTestServer({ extraModules: [ProbeModule], config: { auth_enabled: false } });
  });
  afterAll(() => sut.close());

  it('uses tenant fake, with or without the header', async () => {
    expect(await (await fetch(`${sut.url}/probe/single`, { method: 'POST' })).text()).toBe('fake');
    expect(await (await fetch(`${sut.url}/probe/multi`, orgId('a|b'))).text()).toBe('fake');
  });
});

describe('multi-tenant queries disabled (the default)', () => {
  it('rejects several tenants on query endpoints too', async () => {
    const sut = await startTestServer({ extraModules: [ProbeModule] });
    try {
      const res = await fetch(`${sut.url}/probe/multi`, orgId('a|b'));
      expect(res.status).toBe(400);
      expect(await res.text()).toBe('multiple org IDs present\n');
    } finally {
      await sut.close();
    }
  });
});
