import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  ARTIFACT_PAGE_DEFAULT_SIZE,
  CorrectionRequestDto,
  JobStatusResponseDto,
  ResultVersionsDto,
  ReviewPageDto,
  ReviewQueryDto,
  Subjects,
} from '@docket/contracts';
import { RpcClient } from '@docket/messaging';
import { ApiErrors } from '../http/api-errors.decorator.js';
import { Auth, BasicAuthGuard, type AuthContext } from '../identity/index.js';

const JOB_ID = { name: 'job_id', example: 'job_01jd3q8y4n6z2xk7m5t9w0abcd' };

/**
 * The review workflow (a Docket extension of the spec): results the engine was unsure of wait in a queue; a person
 * corrects values (each correction a new result version, the engine's reading kept) or approves them as they are.
 * A correction never changes what was charged.
 */
@ApiTags('Review')
@ApiBasicAuth()
@UseGuards(BasicAuthGuard)
@Controller()
export class ReviewController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('review')
  @ApiOperation({
    summary: 'Review queue: successful jobs whose result needs review, newest first',
    description:
      'Extension. A job needs review when its confidence is under the template’s `confidence_threshold` or a field failed validation; ' +
      'it leaves the queue when corrected or approved. Paged like `GET /artifacts/`; `template_id` keeps jobs run with that template.',
  })
  @ApiOkResponse({ type: ReviewPageDto })
  @ApiErrors(401, 422, 429)
  list(@Auth() auth: AuthContext, @Query() q: ReviewQueryDto): Promise<ReviewPageDto> {
    return this.rpc.request(Subjects.artifact.reviewList, {
      accountId: auth.accountId,
      page: q.page ?? 1,
      size: q.size ?? ARTIFACT_PAGE_DEFAULT_SIZE,
      templateId: q.template_id,
    });
  }

  @Post('job/:job_id/corrections')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Correct some fields of a successful job’s result (stores a new result version)',
    description:
      'Extension. Values are checked against the field types and validation rules of the template version the job ran with: ' +
      'an unknown field, a value of the wrong type, or one that breaks `regex` / `min_value` / `max_value` / `required` is 422 ' +
      '`invalid_correction` (`details`: `[{ field, message }]`), and nothing is stored. Otherwise the merged result becomes the next ' +
      'version (the engine’s reading stays version 1, see `GET /job/{job_id}/results`), `GET /job/{job_id}` shows it, the job leaves the ' +
      'review queue, and webhooks subscribed to `job.corrected` are notified. A job that is not `success` is 409 `job_not_reviewable`. ' +
      'Billing is unchanged. The result JSON and Markdown downloads stay the engine’s output.',
  })
  @ApiParam(JOB_ID)
  @ApiBody({ type: CorrectionRequestDto })
  @ApiOkResponse({ type: JobStatusResponseDto, description: 'The job with its corrected result and `result_version`.' })
  @ApiErrors(401, 403, 404, 409, 422, 429)
  correct(@Auth() auth: AuthContext, @Param('job_id') jobId: string, @Body() body: CorrectionRequestDto): Promise<JobStatusResponseDto> {
    return this.rpc.request(Subjects.artifact.correctJob, {
      accountId: auth.accountId,
      apiKeyId: auth.apiKeyId,
      jobId,
      fields: body.fields,
    });
  }

  @Post('job/:job_id/approve')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Approve a successful job’s result as it is (clears needs_review)',
    description: 'Extension. Stores no new version; records who approved and when (`GET /job/{job_id}/results`). Idempotent.',
  })
  @ApiParam(JOB_ID)
  @ApiOkResponse({ type: JobStatusResponseDto })
  @ApiErrors(401, 403, 404, 409, 422, 429)
  approve(@Auth() auth: AuthContext, @Param('job_id') jobId: string): Promise<JobStatusResponseDto> {
    return this.rpc.request(Subjects.artifact.approveJob, { accountId: auth.accountId, apiKeyId: auth.apiKeyId, jobId });
  }

  @Get('job/:job_id/results')
  @ApiOperation({
    summary: 'Every version of a job’s result, oldest first, with who changed which fields when',
    description:
      'Extension. Version 1 is the engine’s reading; each correction adds one (`api_key_id`: the key that made it; `changed_fields`). ' +
      '`fields` is the engine’s provenance per field: confidence, page, bounding box and validation messages.',
  })
  @ApiParam(JOB_ID)
  @ApiOkResponse({ type: ResultVersionsDto })
  @ApiErrors(401, 403, 404, 409, 422, 429)
  results(@Auth() auth: AuthContext, @Param('job_id') jobId: string): Promise<ResultVersionsDto> {
    return this.rpc.request(Subjects.artifact.jobResults, { accountId: auth.accountId, jobId });
  }
}
