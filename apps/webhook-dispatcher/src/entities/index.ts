import { DeliveryAttemptEntity } from './delivery-attempt.entity.js';
import { WebhookEntity } from './webhook.entity.js';

export { DeliveryAttemptEntity, WebhookEntity };
export const entities = [WebhookEntity, DeliveryAttemptEntity];
