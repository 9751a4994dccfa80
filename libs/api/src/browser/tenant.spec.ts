import { describe, expect, it } from 'vitest';
import {
  TenantError,
  parseActorPath,
  parseTenantIds,
  resolveTenants,
  tenantIdProblem,
} from './tenant';

describe('tenant IDs', () => {
  it.each(['team-a', 'A_b.c', "it's(*)!", 'x'.repeat(150), '123'])('accepts %j', (id) => {
    expect(tenantIdProblem(id)).toBeUndefined();
  });

  it.each([
    ['a/b', "tenant ID 'a/b' contains unsupported character '/'"],
    ['a b', "tenant ID 'a b' contains unsupported character ' '"],
    ['é', "tenant ID 'é' contains unsupported character 'é'"],
    ['.', "tenant ID is '.' or '..'"],
    ['..', "tenant ID is '.' or '..'"],
    ['x'.repeat(151), 'tenant ID is too long: max 150 characters'],
    ['', 'tenant ID is empty'],
  ])('rejects %j', (id, reason) => {
    expect(tenantIdProblem(id)).toBe(reason);
  });

  it('parses several tenants sorted and de-duplicated', () => {
    expect(parseTenantIds('b|a|b')).toEqual(['a', 'b']);
  });

  it('leaves out empty IDs, as dskit does (`a|b|` queries a and b)', () => {
    expect(parseTenantIds('a|b|')).toEqual(['a', 'b']);
    expect(parseTenantIds('|a||a')).toEqual(['a']);
    expect(() => parseTenantIds('|')).toThrow(new TenantError('invalid', 'tenant ID is empty'));
  });

  it('refuses a missing header and an invalid member', () => {
    expect(() => parseTenantIds(undefined)).toThrow(new TenantError('missing', 'no org id'));
    expect(() => parseTenantIds('a|../x')).toThrow(
      "tenant ID '../x' contains unsupported character '/'",
    );
  });
});

describe('resolveTenants', () => {
  it('uses tenant fake when auth is disabled, whatever the header says', () => {
    expect(resolveTenants(undefined, { authEnabled: false, allowMultiple: false })).toEqual([
      'fake',
    ]);
    expect(resolveTenants('a|b', { authEnabled: false, allowMultiple: false })).toEqual(['fake']);
  });

  it('allows several tenants only where the endpoint does', () => {
    expect(resolveTenants('a|b', { authEnabled: true, allowMultiple: true })).toEqual(['a', 'b']);
    let err: unknown;
    try {
      resolveTenants('a|b', { authEnabled: true, allowMultiple: false });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TenantError);
    expect((err as TenantError).kind).toBe('too-many');
    expect(resolveTenants('a|b|', { authEnabled: true, allowMultiple: true })).toEqual(['a', 'b']);
    expect(() => resolveTenants('a|', { authEnabled: true, allowMultiple: false })).toThrow(
      'multiple org IDs present',
    );
  });
});

describe('parseActorPath', () => {
  it('splits on |', () => {
    expect(parseActorPath('team|alice')).toEqual(['team', 'alice']);
    expect(parseActorPath(undefined)).toEqual([]);
  });
});
