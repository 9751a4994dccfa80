import type { FastifyInstance } from 'fastify';
import { readBody } from './pooled-body';

/** A parsed `application/x-www-form-urlencoded` body: repeated keys become arrays. */
export type FormBody = Record<string, string | string[]>;

export function parseForm(text: string): FormBody {
  const out: FormBody = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const prev = out[key];
    if (prev === undefined) out[key] = value;
    else if (Array.isArray(prev)) prev.push(value);
    else out[key] = [prev, value];
  }
  return out;
}

/**
 * Bodies reach handlers as Buffers (protobuf, JSON, anything else: the push decoders parse them
 * themselves), except forms, which become a FormBody. Size is capped by Fastify's bodyLimit.
 * Buffers may come from a pool (see pooled-body.ts): the push handler gives them back.
 */
export function registerBodyParsers(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_req, body, done) => {
      done(null, parseForm(body as string));
    },
  );
  fastify.addContentTypeParser('*', readBody);
}
