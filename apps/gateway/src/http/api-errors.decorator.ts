import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';
import { ERROR_STATUS } from '@docket/errors';

export class ErrorEnvelopeDto {
  @ApiProperty({ example: 400 }) statusCode: number;
  @ApiProperty({ example: 'Bad Request' }) error: string;
  @ApiProperty({
    example: 'template_and_schema_both_set',
    description: 'Stable machine-readable code (the list is closed within API v1; clients should still tolerate a new one).',
    enum: Object.keys(ERROR_STATUS),
    enumName: 'ErrorCode',
  })
  code: string;
  @ApiProperty({ example: 'Send exactly one of template_id or extraction_schema, not both' }) message: string;
  @ApiPropertyOptional({ example: [{ field: 'artifact_size', constraints: { min: 'artifact_size must not be less than 1' } }] })
  details?: unknown;
  @ApiProperty({ example: 'req_01jd3q8y4n6z2xk7m5t9w0abcd', description: 'Also in the X-Request-Id header and the server logs.' })
  request_id: string;
}

const DESCRIPTIONS: Record<number, string> = {
  400: 'Validation failed: a missing (or null) required field (`validation_failed`), conflicting options, invalid webhook URL, `artifact_size` over 50 MiB (`file_too_large`), an `artifact_type` the engine cannot read (`unsupported_artifact_type`), a `validation.regex` RE2 cannot run (`invalid_regex`), a template or schema whose distinct patterns need more than 8 MiB compiled (`patterns_too_large`), …',
  401: 'Credentials missing, malformed or revoked (the body never says which)',
  402: 'Wallet frozen, or spendable balance insufficient',
  403: 'The resource belongs to another account',
  404: 'Resource not found',
  409: 'Conflict with the resource state (`job_not_reviewable`: only a successful job can be corrected or approved)',
  413: 'Body over the limit (`payload_too_large`): JSON bodies 1 MiB, direct uploads `DIRECT_UPLOAD_MAX_BYTES`',
  422: 'Body, query or path failed schema validation (`invalid_body` / `invalid_query`): a present field of the wrong type or out of range, malformed JSON, a JSON body that is not an object, nesting deeper than 32; a refused correction (`invalid_correction`, one `details` entry per field)',
  429: 'Rate limited; see Retry-After',
};

/** Documents the shared error envelope for each listed status. */
export function ApiErrors(...statuses: number[]) {
  return applyDecorators(...statuses.map((status) => ApiResponse({ status, description: DESCRIPTIONS[status], type: ErrorEnvelopeDto })));
}
