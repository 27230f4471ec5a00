import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serializerCompiler as zodSerializer } from 'fastify-type-provider-zod';
import { directionFree, serializerCompiler } from '../../../server/lib/serializer';
import { currentAdmin, currentUser } from '../../../contract/auth';

const compile = (compiler: typeof serializerCompiler, schema: z.ZodType) => compiler({ schema, method: 'GET', url: '/x', httpStatus: '200' } as never);

const user = {
  id: '6b1e2f0a-0000-4000-8000-000000000001',
  email: 'x@example.com',
  first_name: 'A',
  last_name: 'B',
  phone: null,
  locale: 'en',
  type: 'user',
  status: 'ACTIVE',
  auth_type: 'CREDENTIALS',
  provider: null,
  technical: false,
  avatar_url: null,
  created_at: '2026-11-27T10:00:00.000Z',
  updated_at: '2026-11-27T10:00:00.000Z',
};

describe('response serializer (server/lib/serializer.ts)', () => {
  it('takes the compiled parse only where encoding and parsing agree', () => {
    expect(directionFree(currentUser.response)).toBe(true);
    expect(directionFree(currentAdmin.response)).toBe(true);
    expect(directionFree(z.object({ a: z.string().transform((s) => s.length) }))).toBe(false);
    expect(directionFree(z.object({ a: z.codec(z.string(), z.number(), { decode: Number, encode: String }) }))).toBe(false);
    expect(directionFree(z.object({ a: z.string().default('x') }))).toBe(false);
    expect(directionFree(z.object({ a: z.array(z.object({ b: z.lazy(() => z.string()) })) }))).toBe(false);
  });

  it('answers what the library serializer answers: unknown fields dropped, the same JSON', () => {
    const answer = { data: { auth_user: { ...user, password_hash: 'secret', two_factor_secret: 'secret' }, '2fa': { enabled: false, method: null }, sso_login: false, extra: 1 } };
    const ours = compile(serializerCompiler, currentUser.response as z.ZodType)(answer);
    expect(ours).toBe(compile(zodSerializer as typeof serializerCompiler, currentUser.response as z.ZodType)(answer));
    expect(ours).not.toContain('secret');
    expect(JSON.parse(ours)).toEqual({ data: { auth_user: user, '2fa': { enabled: false, method: null }, sso_login: false } });
    // a direction-dependent schema still encodes (a codec's output side)
    const codec = z.object({ n: z.codec(z.string(), z.number(), { decode: Number, encode: String }) });
    expect(compile(serializerCompiler, codec)({ n: 5 })).toBe('{"n":"5"}');
  });

  it('refuses an answer its schema does not allow (500, never a partial answer)', () => {
    const bad = { data: { auth_user: { ...user, status: 'SOMETHING' }, '2fa': { enabled: false, method: null }, sso_login: false } };
    expect(() => compile(serializerCompiler, currentUser.response as z.ZodType)(bad)).toThrow(/match the schema/i);
  });
});
