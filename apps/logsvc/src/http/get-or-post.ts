import {
  All,
  type CanActivate,
  type ExecutionContext,
  HttpCode,
  Injectable,
  UseGuards,
  applyDecorators,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { PlainHttpError } from './plain-error';

/** Lets only GET and POST through; other methods get Loki's (gorilla/mux's) empty 405. */
@Injectable()
class GetOrPostGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const method = context.switchToHttp().getRequest<FastifyRequest>().method;
    if (method === 'GET' || method === 'POST') return true;
    throw new PlainHttpError(405, '');
  }
}

/**
 * A read endpoint that takes its parameters from the URL (GET) or a form body (POST), as
 * Loki's query endpoints do: one handler for both, answering 200.
 */
export function GetOrPost(paths: string[]): MethodDecorator {
  return applyDecorators(All(paths), HttpCode(200), UseGuards(GetOrPostGuard));
}
