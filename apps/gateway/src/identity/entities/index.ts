import { AccountEntity } from './account.entity.js';
import { ApiKeyEntity } from './api-key.entity.js';
import { KeySecretEntity } from './key-secret.entity.js';

/** The Postgres schema the gateway owns (ARCHITECTURE §1). */
export const IDENTITY_SCHEMA = 'identity';

export const identityEntities = [AccountEntity, ApiKeyEntity, KeySecretEntity];
