import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { BasicStrategy } from 'passport-http';
import { basicAuthHeader, parseBasicAuth } from './credentials.js';
import { IdentityService, type AuthContext } from './identity.service.js';

/** The passport strategy name the guard asks for. */
export const BASIC_STRATEGY = 'docket-basic';

/**
 * passport-http's BasicStrategy, fed the header as our parser (spec §5) reads it. passport-http's own
 * parsing keeps a password only up to a second `:` and takes any scheme containing "basic"; here our strict
 * parser decides what a Basic header is, and the strategy sees the canonical form of what it accepted
 * (or no header at all, which it refuses with its challenge).
 */
type StrategyRequest = Parameters<BasicStrategy['authenticate']>[0];

class StrictBasicStrategy extends BasicStrategy {
  override authenticate(req: StrategyRequest, options?: object): void {
    const header = req.headers.authorization;
    const creds = parseBasicAuth(typeof header === 'string' ? header : undefined);
    const canonical = creds ? basicAuthHeader(creds.apiKey, creds.secret) : undefined;
    super.authenticate({ headers: { authorization: canonical } } as StrategyRequest, options);
  }
}

/** Verifies an API key and secret with the constant-time check of `IdentityService.verify`. */
@Injectable()
export class DocketBasicStrategy extends PassportStrategy(StrictBasicStrategy, BASIC_STRATEGY) {
  constructor(@Inject(IdentityService) private readonly identity: IdentityService) {
    super();
  }

  async validate(apiKey: string, secret: string): Promise<AuthContext | false> {
    return (await this.identity.verify(apiKey, secret)) ?? false;
  }
}
