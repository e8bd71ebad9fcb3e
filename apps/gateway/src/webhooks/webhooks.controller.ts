import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBasicAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CreateWebhookDto,
  RotateSecretResponseDto,
  Subjects,
  UpdateWebhookDto,
  WebhookCreateResponseDto,
  WebhookDeliveriesQueryDto,
  WebhookDeliveryDto,
  WebhookResponseDto,
  WebhookStatsDto,
  WebhookStatsQueryDto,
} from '@docket/contracts';
import { RpcClient } from '@docket/messaging';
import { ApiErrors } from '../http/api-errors.decorator.js';
import { Auth, BasicAuthGuard, type AuthContext } from '../identity/index.js';

const WEBHOOK_ID = { name: 'webhook_id', example: 'wh_01jd3q8y4n6z2xk7m5t9w0abcd' };

@ApiTags('Webhooks')
@ApiBasicAuth()
@UseGuards(BasicAuthGuard)
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @ApiOperation({ summary: "List the account's webhooks", description: 'Secrets are never returned here.' })
  @ApiOkResponse({ type: [WebhookResponseDto] })
  @ApiErrors(401)
  list(@Auth() auth: AuthContext): Promise<WebhookResponseDto[]> {
    return this.rpc.request(Subjects.webhook.list, { accountId: auth.accountId });
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Register a webhook',
    description:
      'HTTPS only, at most 2083 characters, and the host must resolve to public IPs. `secret_key` is shown only now and at rotation. ' +
      'Deliveries are signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`) and carry `X-Webhook-Id: <job_id>:<event_type>`.',
  })
  @ApiCreatedResponse({ type: WebhookCreateResponseDto })
  @ApiErrors(400, 401, 422)
  create(@Auth() auth: AuthContext, @Body() body: CreateWebhookDto): Promise<WebhookCreateResponseDto> {
    return this.rpc.request(Subjects.webhook.create, { accountId: auth.accountId, body });
  }

  @Patch(':webhook_id')
  @ApiOperation({
    summary: 'Update a webhook (partial)',
    description:
      'A changed `url` is re-validated (HTTPS, public IP; 400 otherwise). `is_active: false` stops new deliveries but keeps the record, secret and history.',
  })
  @ApiParam(WEBHOOK_ID)
  @ApiOkResponse({ type: WebhookResponseDto })
  @ApiErrors(400, 401, 403, 404, 422)
  update(@Auth() auth: AuthContext, @Param('webhook_id') webhookId: string, @Body() body: UpdateWebhookDto): Promise<WebhookResponseDto> {
    return this.rpc.request(Subjects.webhook.update, { accountId: auth.accountId, webhookId, body });
  }

  @Delete(':webhook_id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a webhook',
    description: 'Jobs that referenced it complete without notification; queued retries are abandoned.',
  })
  @ApiParam(WEBHOOK_ID)
  @ApiNoContentResponse({ description: 'Deleted; no body.' })
  @ApiErrors(401, 403, 404)
  async delete(@Auth() auth: AuthContext, @Param('webhook_id') webhookId: string): Promise<void> {
    await this.rpc.request(Subjects.webhook.delete, { accountId: auth.accountId, webhookId });
  }

  @Post(':webhook_id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Rotate the signing secret',
    description: 'Returns the new secret once; the previous secret stays valid for a 24-hour overlap.',
  })
  @ApiParam(WEBHOOK_ID)
  @ApiOkResponse({ type: RotateSecretResponseDto })
  @ApiErrors(401, 403, 404)
  rotateSecret(@Auth() auth: AuthContext, @Param('webhook_id') webhookId: string): Promise<RotateSecretResponseDto> {
    return this.rpc.request(Subjects.webhook.rotateSecret, { accountId: auth.accountId, webhookId });
  }

  @Get(':webhook_id/deliveries')
  @ApiOperation({
    summary: 'Delivery log of a webhook, newest first',
    description: 'One entry per attempt (1 to 4); status 0 means a connection or DNS failure.',
  })
  @ApiParam(WEBHOOK_ID)
  @ApiOkResponse({ type: [WebhookDeliveryDto] })
  @ApiErrors(401, 403, 404, 422)
  deliveries(
    @Auth() auth: AuthContext,
    @Param('webhook_id') webhookId: string,
    @Query() q: WebhookDeliveriesQueryDto,
  ): Promise<WebhookDeliveryDto[]> {
    return this.rpc.request(Subjects.webhook.deliveries, {
      accountId: auth.accountId,
      webhookId,
      statusFilter: q.status_filter,
      eventType: q.event_type,
      limit: q.limit ?? 50,
      offset: q.offset ?? 0,
    });
  }

  @Get(':webhook_id/stats')
  @ApiOperation({
    summary: 'Delivery statistics over the last `days` days',
    description: '`success_rate` is a percent of events (job and event type) delivered; failures and latency count attempts.',
  })
  @ApiParam(WEBHOOK_ID)
  @ApiOkResponse({ type: WebhookStatsDto })
  @ApiErrors(401, 403, 404, 422)
  stats(@Auth() auth: AuthContext, @Param('webhook_id') webhookId: string, @Query() q: WebhookStatsQueryDto): Promise<WebhookStatsDto> {
    return this.rpc.request(Subjects.webhook.stats, { accountId: auth.accountId, webhookId, days: q.days ?? 30 });
  }
}
