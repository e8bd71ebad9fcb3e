import { Injectable } from '@nestjs/common';
import type { AsyncJobStartResponseDto, CreatePipelineJobCommand } from '@docket/contracts';
import { CreateExtractionService } from '../extraction/create-extraction.service.js';
import { PipelineService } from './pipeline.service.js';

/**
 * `POST /pipeline_async` (spec §4.7): `POST /extract` under a named pipeline, whose template and
 * webhook are the defaults; the request's template_id / extraction_schema / webhook_id override them.
 * The reply has no `artifact_id` (spec); upload and confirm work as for `/extract`.
 */
@Injectable()
export class PipelineJobService {
  constructor(
    private readonly pipelines: PipelineService,
    private readonly creator: CreateExtractionService,
  ) {}

  async create(cmd: CreatePipelineJobCommand): Promise<AsyncJobStartResponseDto> {
    const pipeline = await this.pipelines.active(cmd.accountId, cmd.request.pipeline_id);
    const { pipeline_id: _pipelineId, ...request } = cmd.request;
    const r = await this.creator.create({ accountId: cmd.accountId, sandbox: cmd.sandbox, apiKeyId: cmd.apiKeyId, request }, pipeline);
    return {
      job_id: r.job_id,
      upload_url: r.upload_url,
      fields: r.fields,
      expires_in: r.expires_in,
      webhook_signing_secret: r.webhook_signing_secret,
    };
  }
}
