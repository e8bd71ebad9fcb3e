import { Inject, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { DocketError } from '@docket/errors';
import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import type { Observable } from 'rxjs';
import type { AuthenticatedRequest } from '../identity/index.js';
import { LOGGER } from '../tokens.js';
import { RateLimitService } from './rate-limit.service.js';
import { rateLimitHeaders } from './window.js';

/**
 * Global interceptor: interceptors run after guards, so `BasicAuthGuard` has already set `req.auth`
 * (a 401 never reaches here and never counts), and before pipes and the handler. Routes without
 * authentication (`/status`, `/health`, `/version`, `/llms.txt`, docs) have no `req.auth` and are
 * never counted (spec §4.9).
 */
@Injectable()
export class RateLimitInterceptor implements NestInterceptor {
  constructor(
    @Inject(RateLimitService) private readonly limits: RateLimitService,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() !== 'http' || !this.limits.enabled) return next.handle();
    const auth = context.switchToHttp().getRequest<AuthenticatedRequest>().auth;
    if (!auth) return next.handle();
    let decision;
    try {
      decision = await this.limits.consume(auth);
    } catch (err) {
      // Fail open: a counter hiccup must not turn into an outage of authenticated calls.
      this.log.warn({ err, api_key: auth.apiKey }, 'rate limit check failed; request admitted');
      return next.handle();
    }
    void context.switchToHttp().getResponse<FastifyReply>().headers(rateLimitHeaders(decision));
    if (!decision.allowed) {
      throw new DocketError(
        'rate_limited',
        `Rate limit of ${decision.limit} requests per minute exceeded; retry after ${decision.retryAfterSeconds} s`,
        {
          retry_after_seconds: decision.retryAfterSeconds,
          limit: decision.limit,
        },
      );
    }
    return next.handle();
  }
}
