import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBasicAuth, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreateWebhookDto, Subjects, WebhookCreateResponseDto } from '@docket/contracts';
import { RpcClient } from '@docket/messaging';
import { ApiErrors } from '../http/api-errors.decorator.js';
import { Auth, BasicAuthGuard, type AuthContext } from '../identity/index.js';

@ApiTags('Webhooks')
@ApiBasicAuth()
@UseGuards(BasicAuthGuard)
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Register a webhook',
    description: 'HTTPS only, at most 2083 characters, and the host must resolve to public IPs. `secret_key` is shown only now and at rotation. ' +
      'Deliveries are signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`) and carry `X-Webhook-Id: <job_id>:<event_type>`.',
  })
  @ApiCreatedResponse({ type: WebhookCreateResponseDto })
  @ApiErrors(400, 401, 422)
  create(@Auth() auth: AuthContext, @Body() body: CreateWebhookDto): Promise<WebhookCreateResponseDto> {
    return this.rpc.request(Subjects.webhook.create, { accountId: auth.accountId, body });
  }
}
