import { WebhookInit1767000000000 } from './1767000000000-webhook-init.js';
import { CorrectionDeliveries1798000000000 } from './1798000000000-correction-deliveries.js';
import { AttemptFinishedAt1799000000000 } from './1799000000000-attempt-finished-at.js';

export const migrations = [WebhookInit1767000000000, CorrectionDeliveries1798000000000, AttemptFinishedAt1799000000000];
