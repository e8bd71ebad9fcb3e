import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { DocketError } from '@docket/errors';
import { IdentityService, type AuthContext } from './identity.service.js';

/** The part of a Fastify request the guard reads and writes. */
export interface AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  auth?: AuthContext;
}

export const UNAUTHORIZED_MESSAGE = 'Invalid or missing credentials';

/**
 * Basic auth (spec §5). Every failure throws the same `unauthorized` error with the same message;
 * the HTTP exception filter renders it and adds `WWW-Authenticate`.
 */
@Injectable()
export class BasicAuthGuard implements CanActivate {
  constructor(@Inject(IdentityService) private readonly identity: IdentityService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = req.headers.authorization;
    const auth = await this.identity.authenticate(typeof header === 'string' ? header : undefined);
    if (!auth) throw new DocketError('unauthorized', UNAUTHORIZED_MESSAGE);
    req.auth = auth;
    return true;
  }
}
