import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AccountScoped, CreatePipelineJobCommand, Subjects, UpdatePipelineCommand } from '@docket/contracts';
import { PipelineJobService } from './pipeline-job.service.js';
import { PipelineService } from './pipeline.service.js';

@Controller()
export class PipelinesHandler {
  constructor(
    private readonly pipelines: PipelineService,
    private readonly jobs: PipelineJobService,
  ) {}

  @MessagePattern(Subjects.artifact.listPipelines)
  list(@Payload() q: AccountScoped) {
    return this.pipelines.list(q.accountId);
  }

  @MessagePattern(Subjects.artifact.updatePipeline)
  update(@Payload() cmd: UpdatePipelineCommand) {
    return this.pipelines.update(cmd);
  }

  @MessagePattern(Subjects.artifact.createPipelineJob)
  createJob(@Payload() cmd: CreatePipelineJobCommand) {
    return this.jobs.create(cmd);
  }
}
