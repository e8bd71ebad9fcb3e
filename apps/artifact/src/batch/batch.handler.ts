import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { BatchRef, CreateBatchCommand, Subjects } from '@docket/contracts';
import { ConfirmBatchService } from './confirm-batch.service.js';
import { CreateBatchService } from './create-batch.service.js';

@Controller()
export class BatchHandler {
  constructor(
    private readonly creator: CreateBatchService,
    private readonly confirmer: ConfirmBatchService,
  ) {}

  @MessagePattern(Subjects.artifact.createBatch)
  create(@Payload() cmd: CreateBatchCommand) {
    return this.creator.create(cmd);
  }

  @MessagePattern(Subjects.artifact.confirmBatch)
  confirm(@Payload() ref: BatchRef) {
    return this.confirmer.confirm(ref);
  }
}
