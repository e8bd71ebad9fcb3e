import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, UseGuards } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBasicAuth,
  ApiBody,
  ApiConsumes,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import {
  ARTIFACT_PAGE_DEFAULT_SIZE,
  ArtifactListQueryDto,
  ArtifactPageDto,
  ArtifactRecordDto,
  ArtifactStatusResponseDto,
  BatchSubmitRequestDto,
  BatchSubmitResponseDto,
  ConfirmBatchResponseDto,
  DownloadQueryDto,
  DownloadResponseDto,
  JobStatusResponseDto,
  MAX_ARTIFACT_BYTES,
  RETENTION_POLICIES,
  RerunResponseDto,
  Subjects,
  UpdateArtifactDto,
} from '@docket/contracts';
import { RpcClient } from '@docket/messaging';
import type { FastifyRequest } from 'fastify';
import { ApiErrors } from '../http/api-errors.decorator.js';
import { DIRECT_UPLOAD_MAX_BYTES_DEFAULT, DirectUploadService } from './direct-upload.service.js';
import { Auth, BasicAuthGuard, type AuthContext } from '../identity/index.js';

const ARTIFACT_ID = { name: 'artifact_id', example: 'art_01jd3q8y4n6z2xk7m5t9w0abcd' };

@ApiTags('Artifacts')
@ApiBasicAuth()
@UseGuards(BasicAuthGuard)
@Controller('artifacts')
export class ArtifactsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly directUpload: DirectUploadService,
  ) {}

  @Post('upload')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Upload a file and queue it in one request (multipart)',
    description:
      'multipart/form-data with `file` (required; its Content-Type becomes artifact_type) and optional `retention_policy`. No template_id or ' +
      "extraction_schema: the default pipeline's template applies — the built-in `auto` unless changed with `PATCH /pipelines/{id}` (400 `no_default_template` when cleared). " +
      `The artifact is stored, marked \`uploaded\` and its job queued; no confirm call. At most \`DIRECT_UPLOAD_MAX_BYTES\` (default ${DIRECT_UPLOAD_MAX_BYTES_DEFAULT}, never above the engine's ${MAX_ARTIFACT_BYTES}) bytes, ` +
      '413 `payload_too_large` beyond (use POST /extract for larger files); a part type the engine cannot read is 400 `unsupported_artifact_type`.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary' }, retention_policy: { type: 'string', enum: [...RETENTION_POLICIES] } },
    },
  })
  @ApiAcceptedResponse({
    type: ArtifactRecordDto,
    description: 'SingleUploadResponse: the artifact, status `uploaded`, with its queued job.',
  })
  @ApiErrors(400, 401, 402, 404, 413, 422)
  upload(@Auth() auth: AuthContext, @Req() req: FastifyRequest): Promise<ArtifactRecordDto> {
    return this.directUpload.upload(auth, req);
  }

  @Post('request-batch-upload')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Request upload URLs for a batch (same as POST /batch)',
    description:
      'Same body and response as `POST /batch`. PUT each file to its `upload_url`, then call `POST /artifacts/confirm-batch-upload/{batch_id}`.',
  })
  @ApiAcceptedResponse({ type: BatchSubmitResponseDto })
  @ApiErrors(400, 401, 402, 404, 422)
  requestBatchUpload(@Auth() auth: AuthContext, @Body() body: BatchSubmitRequestDto): Promise<BatchSubmitResponseDto> {
    return this.rpc.request(Subjects.artifact.createBatch, {
      accountId: auth.accountId,
      sandbox: auth.sandbox,
      apiKeyId: auth.apiKeyId,
      request: body,
    });
  }

  @Post('confirm-batch-upload/:batch_id')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Confirm every uploaded file of a batch',
    description:
      'Idempotent. Uploaded files become `uploaded` with jobs `queued_for_processing` (`confirmed`); files never uploaded stay `pending_upload` ' +
      '(`pending`; their holds are released at once — not held against the wallet — call again once they are uploaded and they are held again); ' +
      'files confirmed earlier are skipped (`already_confirmed`); files whose upload URL expired or that were cancelled are `closed`. Values are artifact ids. ' +
      "404 for an unknown batch or another account's; 402 when the wallet cannot cover a late file (files confirmed before it stay confirmed).",
  })
  @ApiParam({ name: 'batch_id', example: 'bat_01jd3q8y4n6z2xk7m5t9w0abcd' })
  @ApiOkResponse({ type: ConfirmBatchResponseDto })
  @ApiErrors(401, 402, 404, 422)
  confirmBatch(@Auth() auth: AuthContext, @Param('batch_id') batchId: string): Promise<ConfirmBatchResponseDto> {
    return this.rpc.request(Subjects.artifact.confirmBatch, { accountId: auth.accountId, batchId });
  }

  @Get()
  @ApiOperation({
    summary: 'List artifacts of the account, newest first',
    description: '`page` is 1-based; `size` defaults to 50 and is at most 100.',
  })
  @ApiOkResponse({ type: ArtifactPageDto })
  @ApiErrors(401, 422)
  list(@Auth() auth: AuthContext, @Query() q: ArtifactListQueryDto): Promise<ArtifactPageDto> {
    return this.rpc.request(Subjects.artifact.list, {
      accountId: auth.accountId,
      page: q.page ?? 1,
      size: q.size ?? ARTIFACT_PAGE_DEFAULT_SIZE,
    });
  }

  @Get(':artifact_id')
  @ApiOperation({
    summary: 'Full artifact record',
    description: 'Metadata, status, timestamps, retention policy, the latest result and every job run against the artifact.',
  })
  @ApiParam(ARTIFACT_ID)
  @ApiOkResponse({ type: ArtifactRecordDto })
  @ApiErrors(401, 403, 404, 422)
  get(@Auth() auth: AuthContext, @Param('artifact_id') artifactId: string): Promise<ArtifactRecordDto> {
    return this.rpc.request(Subjects.artifact.get, { accountId: auth.accountId, artifactId });
  }

  @Get(':artifact_id/status')
  @ApiOperation({ summary: 'Lightweight artifact status, for frequent polling' })
  @ApiParam(ARTIFACT_ID)
  @ApiOkResponse({ type: ArtifactStatusResponseDto })
  @ApiErrors(401, 403, 404, 422)
  status(@Auth() auth: AuthContext, @Param('artifact_id') artifactId: string): Promise<ArtifactStatusResponseDto> {
    return this.rpc.request(Subjects.artifact.getStatus, { accountId: auth.accountId, artifactId });
  }

  @Patch(':artifact_id')
  @ApiOperation({
    summary: 'Update filename, description or tags',
    description: 'Only `filename` (min 3), `description` (max 1000) and `tags` change; other fields are ignored. `tags` replaces the list.',
  })
  @ApiParam(ARTIFACT_ID)
  @ApiOkResponse({ type: ArtifactRecordDto })
  @ApiErrors(400, 401, 403, 404, 422)
  update(@Auth() auth: AuthContext, @Param('artifact_id') artifactId: string, @Body() body: UpdateArtifactDto): Promise<ArtifactRecordDto> {
    return this.rpc.request(Subjects.artifact.update, { accountId: auth.accountId, artifactId, body });
  }

  @Delete(':artifact_id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete an artifact',
    description:
      'Removes the record, its jobs, the stored source file and the results immediately; no soft delete. A job in flight is cancelled first and its hold released.',
  })
  @ApiParam(ARTIFACT_ID)
  @ApiNoContentResponse({ description: 'Deleted; no body.' })
  @ApiErrors(401, 403, 404, 422)
  async delete(@Auth() auth: AuthContext, @Param('artifact_id') artifactId: string): Promise<void> {
    await this.rpc.request(Subjects.artifact.delete, { accountId: auth.accountId, artifactId });
  }

  @Get(':artifact_id/download')
  @ApiOperation({
    summary: 'Presigned download link (300 s)',
    description:
      '`raw`: the uploaded file (404 once purged by the retention policy). `json` (default) / `md`: the result of the latest successful job (404 if none). Do not cache `download_url`.',
  })
  @ApiParam(ARTIFACT_ID)
  @ApiOkResponse({ type: DownloadResponseDto })
  @ApiErrors(401, 403, 404, 422)
  download(
    @Auth() auth: AuthContext,
    @Param('artifact_id') artifactId: string,
    @Query() q: DownloadQueryDto,
  ): Promise<DownloadResponseDto> {
    return this.rpc.request(Subjects.artifact.download, { accountId: auth.accountId, artifactId, fileType: q.file_type ?? 'json' });
  }

  @Post(':artifact_id/rerun')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Run extraction again (new job)',
    description:
      'No body. From a terminal state only (409 while a job is in flight). Same schema snapshot as the latest job; a new hold is placed (402 if the wallet cannot cover it). 400 `source_purged` once the source file is purged.',
  })
  @ApiParam(ARTIFACT_ID)
  @ApiAcceptedResponse({ type: RerunResponseDto })
  @ApiErrors(400, 401, 402, 403, 404, 409, 422)
  rerun(@Auth() auth: AuthContext, @Param('artifact_id') artifactId: string): Promise<RerunResponseDto> {
    return this.rpc.request(Subjects.artifact.rerun, {
      accountId: auth.accountId,
      artifactId,
      sandbox: auth.sandbox,
      apiKeyId: auth.apiKeyId,
    });
  }

  @Post(':artifact_id/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel the in-flight job',
    description:
      'The latest job becomes `cancelled` and its hold is released; the worker stops on a best-effort basis. 409 `job_terminal` when it already finished.',
  })
  @ApiParam(ARTIFACT_ID)
  @ApiOkResponse({ type: JobStatusResponseDto })
  @ApiErrors(401, 403, 404, 409, 422)
  cancel(@Auth() auth: AuthContext, @Param('artifact_id') artifactId: string): Promise<JobStatusResponseDto> {
    return this.rpc.request(Subjects.artifact.cancel, { accountId: auth.accountId, artifactId });
  }

  @Post(':artifact_id/confirm-upload')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Confirm the upload and queue the job (step 3 of 4)',
    description:
      "Verifies the object exists in storage, re-sizes the job's hold from the stored object's real size, marks the artifact `uploaded` and queues the job. " +
      'Repeating the call returns 200 without queueing again. 402 (`insufficient_funds` / `wallet_frozen`) when the wallet cannot cover the re-sized hold: the artifact stays ' +
      '`pending_upload` and the job `pending`, so the call can be repeated after a deposit. The final charge is the number of pages the engine read.',
  })
  @ApiParam(ARTIFACT_ID)
  @ApiOkResponse({ type: ArtifactRecordDto })
  @ApiErrors(401, 402, 404, 409)
  confirm(@Auth() auth: AuthContext, @Param('artifact_id') artifactId: string): Promise<ArtifactRecordDto> {
    return this.rpc.request(Subjects.artifact.confirmUpload, { accountId: auth.accountId, artifactId });
  }
}
