import { IdentityInit1795396541522 } from './1795396541522-identity-init.js';
import { RateLimits1795500000000 } from './1795500000000-rate-limits.js';
import { SecretLastUsed1796000000000 } from './1796000000000-secret-last-used.js';
import { CredentialRevocationNotify1796100000000 } from './1796100000000-credential-revocation-notify.js';

/** Every gateway migration, oldest first (schema `identity`). */
export const gatewayMigrations = [
  IdentityInit1795396541522,
  RateLimits1795500000000,
  SecretLastUsed1796000000000,
  CredentialRevocationNotify1796100000000,
];
