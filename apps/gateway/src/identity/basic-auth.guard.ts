import { Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { DocketError } from '@docket/errors';
import { BASIC_STRATEGY } from './basic.strategy.js';
import type { AuthContext } from './identity.service.js';

/** The part of a Fastify request the guard reads and writes. */
export interface AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  auth?: AuthContext;
}

export const UNAUTHORIZED_MESSAGE = 'Invalid or missing credentials';

/**
 * Basic auth (spec §5) through `@nestjs/passport` and passport-http (`DocketBasicStrategy`). Every failure
 * throws the same `unauthorized` error with the same message; the HTTP exception filter renders it and adds
 * `WWW-Authenticate`. The caller's `AuthContext` lands on `req.auth`, read with `@Auth()`.
 */
@Injectable()
export class BasicAuthGuard extends AuthGuard(BASIC_STRATEGY) {
  override getAuthenticateOptions() {
    return { session: false, property: 'auth' };
  }

  override handleRequest<T = AuthContext>(err: unknown, user: T | false): T {
    if (err) throw err;
    if (!user) throw new DocketError('unauthorized', UNAUTHORIZED_MESSAGE);
    return user;
  }
}
