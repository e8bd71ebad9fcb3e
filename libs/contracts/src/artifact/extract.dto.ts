import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
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
  MinLength,
  ValidateNested,
} from 'class-validator';
import { AccountScopedEnv } from '../common/account-scoped.js';
import { RETENTION_POLICIES, type RetentionPolicy } from '../common/constants.js';
import { ExtractionSchemaDto } from '../common/field-def.dto.js';
import { FILE_TOO_LARGE_RULE, IsSupportedArtifactType, MAX_ARTIFACT_BYTES, SUPPORTED_ARTIFACT_TYPES } from '../common/limits.js';

/** `type/subtype` (no parameters), as signed into the upload URL. */
export const MIME_TYPE_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;

export const ARTIFACT_TYPE_DESCRIPTION =
  'MIME type; the upload URL is signed against it. Only types the extraction engine reads are accepted ' +
  '(case-insensitive); any other is refused at submit with 400 `unsupported_artifact_type`, whose message lists them. ' +
  '`application/octet-stream` is resolved from the bytes (PDF, image, an `<?xml` declaration) or the filename extension ' +
  '(.txt, .csv, .html, .xml). `application/xml` / `text/xml` is an e-invoice (XRechnung, UBL 2.1 Invoice / CreditNote, ' +
  'UN/CEFACT CII): its fields are read from its data (provenance `embedded_xml`); as from the XML a Factur-X / ZUGFeRD ' +
  'PDF carries. XML with a DOCTYPE or entity declaration fails the job with `corrupt_file`.';
export const ARTIFACT_SIZE_DESCRIPTION =
  `Bytes, greater than 0 and at most ${MAX_ARTIFACT_BYTES} (50 MiB, the largest file the engine reads); larger is refused at submit ` +
  'with 400 `file_too_large`. A non-integer is 422 `invalid_body`.';

export class ExtractRequestDto {
  @ApiProperty({ example: 'invoice-1001.pdf', description: 'Including extension.' })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  @Matches(/^[^/\\\u0000-\u001f]+$/, { message: 'filename must not contain path separators or control characters' })
  filename: string;

  @ApiProperty({ example: 'application/pdf', enum: SUPPORTED_ARTIFACT_TYPES, description: ARTIFACT_TYPE_DESCRIPTION })
  @IsDefined()
  @IsString()
  @Matches(MIME_TYPE_PATTERN, { message: 'artifact_type must be a MIME type such as application/pdf' })
  @IsSupportedArtifactType()
  artifact_type: string;

  @ApiProperty({ example: 48213, minimum: 1, maximum: MAX_ARTIFACT_BYTES, description: ARTIFACT_SIZE_DESCRIPTION })
  @IsDefined()
  @IsInt()
  @Min(1)
  @Max(MAX_ARTIFACT_BYTES, FILE_TOO_LARGE_RULE)
  artifact_size: number;

  @ApiPropertyOptional({ enum: RETENTION_POLICIES, default: '30d' })
  @IsOptional()
  @IsIn(RETENTION_POLICIES as unknown as string[])
  retention_policy?: RetentionPolicy;

  @ApiPropertyOptional({
    example: 'tpl_01JD3Q8Y4N6Z2X',
    description:
      "Exclusive with extraction_schema. `auto` selects the built-in template (the engine classifies the document and extracts its kind's standard fields). " +
      "Without template_id and extraction_schema the default pipeline's template applies (`auto` for new accounts; see GET /pipelines).",
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  template_id?: string;

  @ApiPropertyOptional({
    type: () => ExtractionSchemaDto,
    description: 'Inline schema; exclusive with template_id.',
    example: {
      fields: [
        { key: 'invoice_number', label: 'Invoice Number', data_type: 'string', required: true },
        { key: 'total', label: 'Total', data_type: 'currency' },
      ],
    },
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ExtractionSchemaDto)
  extraction_schema?: ExtractionSchemaDto;

  @ApiPropertyOptional({ example: 'wh_01JD3Q8Y4N6Z2X', description: 'Pre-registered webhook.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  webhook_id?: string;

  @ApiPropertyOptional({
    example: 'https://hooks.example.com/docket',
    description: 'One-shot HTTPS URL; its signing secret is returned once.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2083)
  webhook_url?: string;
}

export class ExtractResponseDto {
  @ApiProperty({ example: 'job_01JD3Q8Y4N6Z2XK7M5T9W0ABCD' }) job_id: string;
  @ApiProperty({ example: 'art_01JD3Q8Y4N6Z2XK7M5T9W0ABCD' }) artifact_id: string;
  @ApiProperty({
    description:
      'Presigned single-use PUT URL. Send the bytes with `Content-Type` equal to artifact_type and exactly artifact_size bytes (`Content-Length` is signed): storage answers 403 otherwise.',
  })
  upload_url: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: {},
    description: 'Form fields required by the upload; empty for direct PUT.',
  })
  fields: Record<string, string>;
  @ApiProperty({ example: 3600 }) expires_in: number;
  @ApiProperty({ type: 'string', nullable: true, example: null, description: 'Set only when webhook_url was passed; returned once.' })
  webhook_signing_secret: string | null;
}

export class CreateExtractionCommand extends AccountScopedEnv {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => ExtractRequestDto)
  request: ExtractRequestDto;
}
