import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateWebhookCommand,
  ListWebhooksQuery,
  RegisterOneShotCommand,
  Subjects,
  UpdateWebhookCommand,
  WebhookRef,
} from '@docket/contracts';
import { WebhookRegistryService } from './webhook-registry.service.js';

@Controller()
export class WebhooksHandler {
  constructor(private readonly registry: WebhookRegistryService) {}

  @MessagePattern(Subjects.webhook.create)
  create(@Payload() cmd: CreateWebhookCommand) {
    return this.registry.create(cmd);
  }

  @MessagePattern(Subjects.webhook.registerOneShot)
  registerOneShot(@Payload() cmd: RegisterOneShotCommand) {
    return this.registry.registerOneShot(cmd);
  }

  @MessagePattern(Subjects.webhook.verify)
  verify(@Payload() ref: WebhookRef) {
    return this.registry.verify(ref);
  }

  @MessagePattern(Subjects.webhook.list)
  list(@Payload() q: ListWebhooksQuery) {
    return this.registry.list(q);
  }

  @MessagePattern(Subjects.webhook.update)
  update(@Payload() cmd: UpdateWebhookCommand) {
    return this.registry.update(cmd);
  }

  @MessagePattern(Subjects.webhook.delete)
  delete(@Payload() ref: WebhookRef) {
    return this.registry.delete(ref);
  }

  @MessagePattern(Subjects.webhook.rotateSecret)
  rotateSecret(@Payload() ref: WebhookRef) {
    return this.registry.rotateSecret(ref);
  }
}
