import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Subjects, UsageQuery } from '@docket/contracts';
import { UsageService } from './usage.service.js';

@Controller()
export class UsageHandler {
  constructor(private readonly usage: UsageService) {}

  @MessagePattern(Subjects.billing.usage)
  summary(@Payload() q: UsageQuery) {
    return this.usage.summary(q);
  }
}
