import { IdentityInit1795396541522 } from './1795396541522-identity-init.js';

/** Every gateway migration, oldest first (schema `identity`). */
export const gatewayMigrations = [IdentityInit1795396541522];
