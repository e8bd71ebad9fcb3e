import { IdentityInit1795396541522 } from './1795396541522-identity-init.js';
import { RateLimits1795500000000 } from './1795500000000-rate-limits.js';

/** Every gateway migration, oldest first (schema `identity`). */
export const gatewayMigrations = [IdentityInit1795396541522, RateLimits1795500000000];
