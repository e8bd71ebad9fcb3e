import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import {
  ApiAcceptedResponse, ApiBasicAuth, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags,
} from '@nestjs/swagger';
import {
  ARTIFACT_PAGE_DEFAULT_SIZE, ArtifactListQueryDto, ArtifactPageDto, ArtifactRecordDto, ArtifactStatusResponseDto, DownloadQueryDto,
  DownloadResponseDto, JobStatusResponseDto, RerunResponseDto, Subjects, UpdateArtifactDto,
} from '@docket/contracts';
import { RpcClient } from '@docket/messaging';
import { ApiErrors } from '../http/api-errors.decorator.js';
import { Auth, BasicAuthGuard, type AuthContext } from '../identity/index.js';

const ARTIFACT_ID = { name: 'artifact_id', example: 'art_01jd3q8y4n6z2xk7m5t9w0abcd' };

@ApiTags('Artifacts')
@ApiBasicAuth()
@UseGuards(BasicAuthGuard)
@Controller('artifacts')
export class ArtifactsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @ApiOperation({ summary: 'List artifacts of the account, newest first', description: '`page` is 1-based; `size` defaults to 50 and is at most 100.' })
  @ApiOkResponse({ type: ArtifactPageDto })
  @ApiErrors(401, 422)
  list(@Auth() auth: AuthContext, @Query() q: ArtifactListQueryDto): Promise<ArtifactPageDto> {
    return this.rpc.request(Subjects.artifact.list, { accountId: auth.accountId, page: q.page ?? 1, size: q.size ?? ARTIFACT_PAGE_DEFAULT_SIZE });
  }

  @Get(':artifact_id')
  @ApiOperation({ summary: 'Full artifact record', description: 'Metadata, status, timestamps, retention policy, the latest result and every job run against the artifact.' })
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
    description: 'Removes the record, its jobs, the stored source file and the results immediately; no soft delete. A job in flight is cancelled first and its hold released.',
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
    description: '`raw`: the uploaded file (404 once purged by the retention policy). `json` (default) / `md`: the result of the latest successful job (404 if none). Do not cache `download_url`.',
  })
  @ApiParam(ARTIFACT_ID)
  @ApiOkResponse({ type: DownloadResponseDto })
  @ApiErrors(401, 403, 404, 422)
  download(@Auth() auth: AuthContext, @Param('artifact_id') artifactId: string, @Query() q: DownloadQueryDto): Promise<DownloadResponseDto> {
    return this.rpc.request(Subjects.artifact.download, { accountId: auth.accountId, artifactId, fileType: q.file_type ?? 'json' });
  }

  @Post(':artifact_id/rerun')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Run extraction again (new job)',
    description: 'No body. From a terminal state only (409 while a job is in flight). Same schema snapshot as the latest job; a new hold is placed (402 if the wallet cannot cover it). 400 `source_purged` once the source file is purged.',
  })
  @ApiParam(ARTIFACT_ID)
  @ApiAcceptedResponse({ type: RerunResponseDto })
  @ApiErrors(400, 401, 402, 403, 404, 409, 422)
  rerun(@Auth() auth: AuthContext, @Param('artifact_id') artifactId: string): Promise<RerunResponseDto> {
    return this.rpc.request(Subjects.artifact.rerun, { accountId: auth.accountId, artifactId, sandbox: auth.sandbox, apiKeyId: auth.apiKeyId });
  }

  @Post(':artifact_id/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel the in-flight job',
    description: 'The latest job becomes `cancelled` and its hold is released; the worker stops on a best-effort basis. 409 `job_terminal` when it already finished.',
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
    description: 'Verifies the object exists in storage, marks the artifact `uploaded` and queues the job. Repeating the call returns 200 without queueing again.',
  })
  @ApiParam(ARTIFACT_ID)
  @ApiOkResponse({ type: ArtifactRecordDto })
  @ApiErrors(401, 404, 409)
  confirm(@Auth() auth: AuthContext, @Param('artifact_id') artifactId: string): Promise<ArtifactRecordDto> {
    return this.rpc.request(Subjects.artifact.confirmUpload, { accountId: auth.accountId, artifactId });
  }
}
