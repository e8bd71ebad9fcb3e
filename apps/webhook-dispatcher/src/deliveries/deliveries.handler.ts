import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { JobWebhookLogsQuery, Subjects, WebhookDeliveriesQuery, WebhookStatsQuery } from '@docket/contracts';
import { DeliveryLogService } from './delivery-log.service.js';

@Controller()
export class DeliveriesHandler {
  constructor(private readonly log: DeliveryLogService) {}

  @MessagePattern(Subjects.webhook.logsByJob)
  logsByJob(@Payload() q: JobWebhookLogsQuery) {
    return this.log.logsByJob(q);
  }

  @MessagePattern(Subjects.webhook.deliveries)
  deliveries(@Payload() q: WebhookDeliveriesQuery) {
    return this.log.deliveries(q);
  }

  @MessagePattern(Subjects.webhook.stats)
  stats(@Payload() q: WebhookStatsQuery) {
    return this.log.stats(q);
  }
}
