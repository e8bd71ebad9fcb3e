import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { JobOutcomeCommand, JobPagesCommand, JobRef, JobStartedCommand, JobStorageCommand, Subjects, TemplateRef } from '@docket/contracts';
import { JobPagesService } from './job-pages.service.js';
import { JobProgressService } from './job-progress.service.js';
import { JobQueryService } from './job-query.service.js';
import { JobStorageService } from './job-storage.service.js';

@Controller()
export class JobsHandler {
  constructor(
    private readonly query: JobQueryService,
    private readonly progress: JobProgressService,
    private readonly storage: JobStorageService,
    private readonly jobPages: JobPagesService,
  ) {}

  @MessagePattern(Subjects.artifact.getJob)
  get(@Payload() ref: JobRef) {
    return this.query.get(ref);
  }

  @MessagePattern(Subjects.artifact.jobStorage)
  storageAccess(@Payload() cmd: JobStorageCommand) {
    return this.storage.access(cmd);
  }

  @MessagePattern(Subjects.artifact.jobStarted)
  started(@Payload() cmd: JobStartedCommand) {
    return this.progress.started(cmd);
  }

  @MessagePattern(Subjects.artifact.jobPages)
  pages(@Payload() cmd: JobPagesCommand) {
    return this.jobPages.pages(cmd);
  }

  @MessagePattern(Subjects.artifact.jobOutcome)
  outcome(@Payload() cmd: JobOutcomeCommand) {
    return this.progress.outcome(cmd);
  }

  @MessagePattern(Subjects.artifact.jobSettlement)
  settlement(@Payload() ref: JobRef) {
    return this.query.settlement(ref);
  }

  @MessagePattern(Subjects.artifact.templateInUse)
  templateInUse(@Payload() ref: TemplateRef) {
    return this.query.templateInUse(ref.accountId, ref.templateId);
  }
}
