import { WebhookInit1767000000000 } from './1767000000000-webhook-init.js';

export const migrations = [WebhookInit1767000000000];
