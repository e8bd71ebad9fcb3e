import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { DeliveryLogEntryDto, JobStatusResponseDto, Subjects, WebhookLogsQueryDto } from '@docket/contracts';
import { RpcClient } from '@docket/messaging';
import { ApiErrors } from '../http/api-errors.decorator.js';
import { Auth, BasicAuthGuard, type AuthContext } from '../identity/index.js';

@ApiTags('Jobs')
@ApiBasicAuth()
@UseGuards(BasicAuthGuard)
@Controller('job')
export class JobsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get(':job_id')
  @ApiOperation({
    summary: 'Job status (step 4 of 4: poll until a terminal status)',
    description: '`result` and `result_download_url` appear on `success`; `error` (`<code>: <message>`) on `failed` or `expired`.',
  })
  @ApiParam({ name: 'job_id', example: 'job_01jd3q8y4n6z2xk7m5t9w0abcd' })
  @ApiOkResponse({ type: JobStatusResponseDto })
  @ApiErrors(401, 403, 404, 422)
  get(@Auth() auth: AuthContext, @Param('job_id') jobId: string): Promise<JobStatusResponseDto> {
    return this.rpc.request(Subjects.artifact.getJob, { accountId: auth.accountId, jobId });
  }

  @Get(':job_id/webhook-logs')
  @ApiOperation({ summary: 'Webhook delivery attempts for a job, in attempt order' })
  @ApiParam({ name: 'job_id', example: 'job_01jd3q8y4n6z2xk7m5t9w0abcd' })
  @ApiOkResponse({ type: [DeliveryLogEntryDto] })
  @ApiErrors(401, 403, 404, 422)
  async webhookLogs(
    @Auth() auth: AuthContext,
    @Param('job_id') jobId: string,
    @Query() q: WebhookLogsQueryDto,
  ): Promise<DeliveryLogEntryDto[]> {
    // Ownership first, so another account's job answers 403 and an unknown one 404 (spec §4.4).
    await this.rpc.request(Subjects.artifact.getJob, { accountId: auth.accountId, jobId });
    return this.rpc.request(Subjects.webhook.logsByJob, { accountId: auth.accountId, jobId, limit: q.limit ?? 20, offset: q.offset ?? 0 });
  }
}
