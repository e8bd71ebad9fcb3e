import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { AccountScoped } from '../common/account-scoped.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../common/constants.js';
import { MAX_LIST_OFFSET } from '../common/limits.js';
import { IsOptionalNotNull } from '../common/optional.js';

export class CreateWebhookDto {
  @ApiProperty({ example: 'https://hooks.example.com/docket', maxLength: 2083, description: 'HTTPS only; must resolve to a public IP.' })
  @IsDefined()
  @IsString()
  @MaxLength(2083, { context: { code: 'invalid_webhook_url' } })
  url: string;

  @ApiPropertyOptional({ example: 'Accounts payable', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  description?: string;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true, example: ['extraction.completed', 'extraction.failed'] })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1, { context: { code: 'validation_failed' } })
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES as unknown as string[], { each: true })
  events: WebhookEventType[];
}

export class WebhookResponseDto {
  @ApiProperty({ example: 'wh_01JD3Q8Y4N6Z2XK7M5T9W0ABCD' }) id: string;
  @ApiProperty({ example: 'https://hooks.example.com/docket' }) url: string;
  @ApiProperty({ example: 'Accounts payable' }) description: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true }) events: WebhookEventType[];
  @ApiProperty() is_active: boolean;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}

export class WebhookCreateResponseDto extends WebhookResponseDto {
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'Shown only at creation and rotation.' })
  secret_key: string;
}

export class DeliveryLogEntryDto {
  @ApiProperty({ example: 1, minimum: 1, maximum: 4 }) attempt_number: number;
  @ApiProperty({ example: 'extraction.completed' }) event_type: string;
  @ApiProperty({ example: 'https://hooks.example.com/docket' }) url: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { 'X-Webhook-Id': 'job_…:extraction.completed' } })
  request_headers: Record<string, string>;
  @ApiProperty({ example: 200, description: '0 means a connection or DNS failure.' }) response_status_code: number;
  @ApiProperty({ example: 'ok' }) response_body: string;
  @ApiProperty() is_success: boolean;
  @ApiProperty({ example: 84 }) duration_ms: number;
  @ApiProperty() attempted_at: string;
}

export class CreateWebhookCommand extends AccountScoped {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => CreateWebhookDto)
  body: CreateWebhookDto;
}

export class RegisterOneShotCommand extends AccountScoped {
  @IsDefined() @IsString() @MaxLength(2083) url: string;
}

export class RegisterOneShotReply {
  webhookId: string;
  secret: string;
}

export class WebhookRef extends AccountScoped {
  @IsDefined() @IsString() @Matches(/^[A-Za-z0-9_-]{1,64}$/) webhookId: string;
}

export class WebhookLogsQueryDto {
  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number = 20;

  @ApiPropertyOptional({ default: 0, minimum: 0, maximum: MAX_LIST_OFFSET })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_LIST_OFFSET)
  offset?: number = 0;
}

export class JobWebhookLogsQuery extends AccountScoped {
  @IsDefined() @IsString() @MaxLength(64) jobId: string;
  @IsInt() @Min(1) @Max(100) limit: number;
  @IsInt() @Min(0) @Max(MAX_LIST_OFFSET) offset: number;
}

// ---- Management commands (gateway → webhook-dispatcher) and their HTTP bodies/queries ----

export class UpdateWebhookDto {
  @ApiPropertyOptional({
    example: 'https://hooks.example.com/docket',
    maxLength: 2083,
    description: 'Re-validated (HTTPS, public IP) when changed.',
  })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(2083, { context: { code: 'invalid_webhook_url' } })
  url?: string;

  @ApiPropertyOptional({ example: 'Accounts payable', maxLength: 255 })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(255)
  description?: string;

  @ApiPropertyOptional({ example: true, description: 'false stops new deliveries without deleting the record, secret or history.' })
  @IsOptionalNotNull()
  @IsBoolean()
  is_active?: boolean;

  @ApiPropertyOptional({ enum: WEBHOOK_EVENT_TYPES, isArray: true })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMinSize(1, { context: { code: 'validation_failed' } })
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES as unknown as string[], { each: true })
  events?: WebhookEventType[];
}

export class UpdateWebhookCommand extends WebhookRef {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => UpdateWebhookDto)
  body: UpdateWebhookDto;
}

export class ListWebhooksQuery extends AccountScoped {}

export class RotateSecretResponseDto {
  @ApiProperty({ example: 'wh_01jd3q8y4n6z2xk7m5t9w0abcd' }) id: string;
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'New secret; the previous one stays valid for 24 hours.' })
  secret_key: string;
  @ApiProperty({ example: 'https://hooks.example.com/docket' }) url: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true }) events: WebhookEventType[];
}

export const DELIVERY_STATUS_FILTERS = ['success', 'failed'] as const;
export type DeliveryStatusFilter = (typeof DELIVERY_STATUS_FILTERS)[number];

export class WebhookDeliveriesQueryDto {
  @ApiPropertyOptional({ enum: DELIVERY_STATUS_FILTERS })
  @IsOptional()
  @IsIn(DELIVERY_STATUS_FILTERS as unknown as string[])
  status_filter?: DeliveryStatusFilter;

  @ApiPropertyOptional({ example: 'extraction.completed' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  event_type?: string;

  @ApiPropertyOptional({ default: 50, minimum: 1, maximum: 200 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number = 50;

  @ApiPropertyOptional({ default: 0, minimum: 0, maximum: MAX_LIST_OFFSET })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_LIST_OFFSET)
  offset?: number = 0;
}

export class WebhookDeliveriesQuery extends WebhookRef {
  @IsOptional() @IsIn(DELIVERY_STATUS_FILTERS as unknown as string[]) statusFilter?: DeliveryStatusFilter;
  @IsOptional() @IsString() @MaxLength(64) eventType?: string;
  @IsOptional() @IsInt() @Min(1) @Max(200) limit?: number = 50;
  @IsOptional() @IsInt() @Min(0) @Max(MAX_LIST_OFFSET) offset?: number = 0;
}

export class WebhookDeliveryDto extends DeliveryLogEntryDto {
  @ApiProperty({ example: 'dlv_01jd3q8y4n6z2xk7m5t9w0abcd' }) id: string;
  @ApiProperty({ example: 'job_01jd3q8y4n6z2xk7m5t9w0abcd' }) job_id: string;
}

export class WebhookStatsQueryDto {
  @ApiPropertyOptional({ default: 30, minimum: 1, maximum: 90 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(90)
  days?: number = 30;
}

export class WebhookStatsQuery extends WebhookRef {
  @IsOptional() @IsInt() @Min(1) @Max(90) days?: number = 30;
}

export class WebhookStatsDto {
  @ApiProperty({ example: 120 }) total_events: number;
  @ApiProperty({ example: 97.5, description: 'Percent of delivery attempts that succeeded.' }) success_rate: number;
  @ApiProperty({ example: 2 }) failures_last_24h: number;
  @ApiProperty({ example: 84.2 }) avg_latency_ms: number;
}

export class DeleteWebhookReply {
  id: string;
  deleted: true;
}
