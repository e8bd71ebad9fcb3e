import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { MAX_FIELD_VALIDATION_NUMBER } from './limits.js';
import { IsOptionalNotNull } from './optional.js';
import { IsRe2Pattern, PatternsWithinShare } from './user-pattern.js';

/** An ISO 4217 currency code's shape (three capital letters). */
export const CURRENCY_CODE = /^[A-Z]{3}$/;

export const DATA_TYPES = ['string', 'number', 'date', 'currency', 'table', 'boolean'] as const;
export type DataType = (typeof DATA_TYPES)[number];

/**
 * Template setting `ocr_engine` (ADR 0001, ADR 0005): `default` = the worker's choice (`OCR_ENGINE`, by default the
 * measured best: PaddleOCR for English, tesseract for other languages), `paddle` = PaddleOCR (English/ASCII; other
 * languages still go to tesseract), `tesseract` = the native binary (falls back to tesseract.js where it is not
 * installed), `tesseract.js` = the bundled WebAssembly build.
 */
export const OCR_ENGINES = ['default', 'tesseract', 'tesseract.js', 'paddle'] as const;
export type OcrEngine = (typeof OCR_ENGINES)[number];

export class FieldValidationDto {
  @ApiPropertyOptional({
    example: '^INV-\\d+$',
    description:
      'Regular expression the string value must match, run on RE2 (linear time; Unicode mode). RE2 has no backreferences or lookaround: such a pattern is refused with 400 `invalid_regex` and the reason. The distinct patterns of one template or schema may need at most 8 MiB compiled (about 8 KiB + 160 bytes per RE2 instruction: `[a-z]{1000}` ≈ 168 KB): beyond, 400 `patterns_too_large`.',
  })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(500)
  @IsRe2Pattern({ context: { code: 'invalid_regex' } })
  regex?: string;

  @ApiPropertyOptional({ example: 0, minimum: -MAX_FIELD_VALIDATION_NUMBER, maximum: MAX_FIELD_VALIDATION_NUMBER })
  @IsOptionalNotNull()
  @IsNumber()
  @Min(-MAX_FIELD_VALIDATION_NUMBER)
  @Max(MAX_FIELD_VALIDATION_NUMBER)
  min_value?: number;

  @ApiPropertyOptional({ example: 100000, minimum: -MAX_FIELD_VALIDATION_NUMBER, maximum: MAX_FIELD_VALIDATION_NUMBER })
  @IsOptionalNotNull()
  @IsNumber()
  @Min(-MAX_FIELD_VALIDATION_NUMBER)
  @Max(MAX_FIELD_VALIDATION_NUMBER)
  max_value?: number;

  @ApiPropertyOptional()
  @IsOptionalNotNull()
  @IsBoolean()
  required?: boolean;
}

/**
 * What every field definition has but the label. `label` is required on a template's fields (spec §2.3
 * `TemplateFieldDef`) and optional in an inline `extraction_schema` and in a table's columns ("the inline-schema form
 * of a field may omit it"): `TemplateFieldDefDto` and `FieldDefDto` below.
 */
abstract class FieldDefBase {
  @ApiProperty({ example: 'invoice_number', pattern: '^[a-z0-9_]+$', description: 'Becomes the JSON key in the result.' })
  @IsDefined()
  @IsString()
  @Matches(/^[a-z0-9_]+$/)
  @MaxLength(100)
  key: string;

  @ApiProperty({ enum: DATA_TYPES, example: 'string' })
  @IsDefined()
  @IsIn(DATA_TYPES as unknown as string[], { context: { code: 'invalid_data_type' } })
  data_type: DataType;

  @ApiPropertyOptional({ default: false })
  @IsOptionalNotNull()
  @IsBoolean()
  required?: boolean;

  @ApiPropertyOptional({ example: 'The invoice identifier printed near the top.' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @ApiPropertyOptional({ type: () => FieldValidationDto })
  @IsOptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => FieldValidationDto)
  validation?: FieldValidationDto;

  @ApiPropertyOptional({ type: () => [FieldDefDto], description: 'Columns of a `table` field.' })
  @ValidateIf((o: FieldDefDto) => o.data_type === 'table' || o.fields !== undefined)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => FieldDefDto)
  fields?: FieldDefDto[];
}

/** A field of an inline `extraction_schema`, a table's column, a stored schema: `label` may be omitted. */
export class FieldDefDto extends FieldDefBase {
  @ApiPropertyOptional({ example: 'Invoice Number', description: 'Human-readable label; also what the engine looks for on the page.' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(200)
  label?: string;
}

/**
 * `TemplateFieldDef` (spec §2.3): a field of a template (`POST /templates/` `fields`, schema patch `add_fields` /
 * `update_fields`). `label` is required: absent or null is 400 `validation_failed`, like any missing field.
 */
export class TemplateFieldDefDto extends FieldDefBase {
  @ApiProperty({ example: 'Invoice Number', description: 'Human-readable label; also what the engine looks for on the page.' })
  @IsDefined()
  @IsString()
  @MaxLength(200)
  label: string;
}

export class ExtractionSchemaDto {
  @ApiProperty({ type: () => [FieldDefDto], description: 'Ordered field definitions.' })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(200)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => FieldDefDto)
  @PatternsWithinShare({ context: { code: 'patterns_too_large' } })
  fields: FieldDefDto[];
}

export class TemplateSettingsDto {
  @ApiPropertyOptional({ default: false })
  @IsOptionalNotNull()
  @IsBoolean()
  auto_save?: boolean;

  @ApiPropertyOptional({ default: 0.7, minimum: 0, maximum: 1 })
  @IsOptionalNotNull()
  @IsNumber()
  @Min(0)
  @Max(1)
  confidence_threshold?: number;

  @ApiPropertyOptional({
    default: 'default',
    enum: OCR_ENGINES,
    description:
      '`default`: native tesseract when installed on the worker, else tesseract.js; `tesseract`: the native binary (tesseract.js where it is not installed); `tesseract.js`: the bundled WebAssembly build.',
  })
  @IsOptionalNotNull()
  @IsIn(OCR_ENGINES as unknown as string[])
  ocr_engine?: string;

  @ApiPropertyOptional({
    example: 'EUR',
    nullable: true,
    pattern: CURRENCY_CODE.source,
    description:
      'ISO 4217 code given to extracted `currency` amounts whose document prints no currency at all. Without it such an ' +
      'amount is returned as `{ "value": 480, "currency": null }`: the engine never guesses a currency. A currency printed ' +
      'on the document always wins. `null` clears the setting.',
  })
  @IsOptional()
  @IsString()
  @Matches(CURRENCY_CODE, { message: 'default_currency must be an ISO 4217 code such as EUR' })
  default_currency?: string | null;

  @ApiPropertyOptional({
    default: false,
    description:
      'When the wallet cannot cover every page of a document (its real page count is known once processing starts): `false` fails the job with `insufficient_funds` and reads and charges nothing; `true` reads only the first pages the wallet covers, charges those, and the job reports `pages_read` and `page_count`.',
  })
  @IsOptionalNotNull()
  @IsBoolean()
  partial_pages?: boolean;
}

/** Duplicate keys inside one schema are a 400 (spec §7), checked beside the shape validation. */
export function findDuplicateKeys(fields: { key: string; fields?: { key: string }[] }[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const f of fields) {
    if (seen.has(f.key)) dup.add(f.key);
    seen.add(f.key);
    if (f.fields) for (const d of findDuplicateKeys(f.fields)) dup.add(`${f.key}.${d}`);
  }
  return [...dup];
}
