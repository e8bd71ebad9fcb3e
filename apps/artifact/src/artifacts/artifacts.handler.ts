import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ArtifactListQuery,
  ArtifactRef,
  DownloadArtifactCommand,
  RerunArtifactCommand,
  Subjects,
  UpdateArtifactCommand,
} from '@docket/contracts';
import { ArtifactQueryService } from './artifact-query.service.js';
import { ArtifactUpdateService } from './artifact-update.service.js';
import { CancelService } from './cancel.service.js';
import { RerunService } from './rerun.service.js';

/** The artifact resource (spec §4.2) beyond create/confirm. */
@Controller()
export class ArtifactsHandler {
  constructor(
    private readonly query: ArtifactQueryService,
    private readonly updater: ArtifactUpdateService,
    private readonly reruns: RerunService,
    private readonly cancels: CancelService,
  ) {}

  @MessagePattern(Subjects.artifact.list)
  list(@Payload() q: ArtifactListQuery) {
    return this.query.list(q);
  }

  @MessagePattern(Subjects.artifact.get)
  get(@Payload() ref: ArtifactRef) {
    return this.query.get(ref);
  }

  @MessagePattern(Subjects.artifact.getStatus)
  status(@Payload() ref: ArtifactRef) {
    return this.query.status(ref);
  }

  @MessagePattern(Subjects.artifact.update)
  update(@Payload() cmd: UpdateArtifactCommand) {
    return this.updater.update(cmd);
  }

  /** Replies `{ deleted: true }` (a NATS reply needs a body); the gateway answers 204. */
  @MessagePattern(Subjects.artifact.delete)
  async delete(@Payload() ref: ArtifactRef) {
    await this.updater.delete(ref);
    return { deleted: true };
  }

  @MessagePattern(Subjects.artifact.download)
  download(@Payload() cmd: DownloadArtifactCommand) {
    return this.query.download(cmd);
  }

  @MessagePattern(Subjects.artifact.rerun)
  rerun(@Payload() cmd: RerunArtifactCommand) {
    return this.reruns.rerun(cmd);
  }

  @MessagePattern(Subjects.artifact.cancel)
  cancel(@Payload() ref: ArtifactRef) {
    return this.cancels.cancel(ref);
  }
}
