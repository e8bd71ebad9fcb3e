import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { DocketError } from '@docket/errors';
import { UNAUTHORIZED_MESSAGE, type AuthenticatedRequest } from './basic-auth.guard.js';
import type { AuthContext } from './identity.service.js';

/** The caller's `AuthContext`, set by `BasicAuthGuard`. A route without the guard fails closed. */
export const Auth = createParamDecorator((_data: unknown, context: ExecutionContext): AuthContext => {
  const auth = context.switchToHttp().getRequest<AuthenticatedRequest>().auth;
  if (!auth) throw new DocketError('unauthorized', UNAUTHORIZED_MESSAGE);
  return auth;
});
