import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { DocketError } from '@docket/errors';
import { hashesEqual, hashSecret } from '../identity/credentials.js';

/** Shortest `ADMIN_TOKEN` the gateway accepts at boot: a guessable operator token would open every account. */
export const ADMIN_TOKEN_MIN_LENGTH = 32;
/** Longest `Authorization` header the admin guard reads (anything longer is refused unread). */
const MAX_ADMIN_HEADER_LENGTH = 1024;

export const ADMIN_NOT_ENABLED_MESSAGE = 'Not found';
export const ADMIN_MISSING_MESSAGE = 'Admin routes need Authorization: Bearer <ADMIN_TOKEN>';
export const ADMIN_WRONG_MESSAGE = 'Invalid admin token';

/**
 * The operator token of the admin routes, from the gateway's environment (`ADMIN_TOKEN`). Only its SHA-256 is kept
 * in memory after boot; a presented token is hashed and compared in constant time. It is never an API key: a Basic
 * header is not even parsed here.
 */
export class AdminToken {
  private readonly digest?: string;

  constructor(token: string | undefined) {
    if (token) this.digest = hashSecret(token);
  }

  get enabled(): boolean {
    return this.digest !== undefined;
  }

  /** Throws the error the request gets: 404 when admin mode is off, 401 without a Bearer token, 403 for a wrong one. */
  check(authorization: string | string[] | undefined): void {
    if (!this.digest) throw new DocketError('not_found', ADMIN_NOT_ENABLED_MESSAGE);
    const header = typeof authorization === 'string' && authorization.length <= MAX_ADMIN_HEADER_LENGTH ? authorization : '';
    const match = /^bearer +(\S+)$/i.exec(header.trim());
    if (!match) throw new DocketError('unauthorized', ADMIN_MISSING_MESSAGE);
    if (!hashesEqual(hashSecret(match[1]), this.digest)) throw new DocketError('forbidden', ADMIN_WRONG_MESSAGE);
  }
}

/** Guards every admin route with the operator token (`AdminToken.check`). */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(@Inject(AdminToken) private readonly token: AdminToken) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<{ headers: Record<string, string | string[] | undefined> }>();
    this.token.check(req.headers.authorization);
    return true;
  }
}
