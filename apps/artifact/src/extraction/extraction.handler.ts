import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ArtifactRef, CreateExtractionCommand, Subjects } from '@docket/contracts';
import { ConfirmUploadService } from './confirm-upload.service.js';
import { CreateExtractionService } from './create-extraction.service.js';

@Controller()
export class ExtractionHandler {
  constructor(
    private readonly creator: CreateExtractionService,
    private readonly confirmer: ConfirmUploadService,
  ) {}

  @MessagePattern(Subjects.artifact.createExtraction)
  create(@Payload() cmd: CreateExtractionCommand) {
    return this.creator.create(cmd);
  }

  @MessagePattern(Subjects.artifact.confirmUpload)
  confirm(@Payload() ref: ArtifactRef) {
    return this.confirmer.confirm(ref);
  }
}
