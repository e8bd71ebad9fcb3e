import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsDefined, IsIn, IsNumber, IsObject, IsOptional, IsString,
  Matches, Max, MaxLength, Min, ValidateIf, ValidateNested,
} from 'class-validator';

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
  @ApiPropertyOptional({ example: '^INV-\\d+$', description: 'ECMAScript regular expression the string value must match.' })
  @IsOptional() @IsString() @MaxLength(500)
  regex?: string;

  @ApiPropertyOptional({ example: 0 }) @IsOptional() @IsNumber()
  min_value?: number;

  @ApiPropertyOptional({ example: 100000 }) @IsOptional() @IsNumber()
  max_value?: number;

  @ApiPropertyOptional() @IsOptional() @IsBoolean()
  required?: boolean;
}

export class FieldDefDto {
  @ApiProperty({ example: 'invoice_number', pattern: '^[a-z0-9_]+$', description: 'Becomes the JSON key in the result.' })
  @IsDefined() @IsString() @Matches(/^[a-z0-9_]+$/) @MaxLength(100)
  key: string;

  @ApiPropertyOptional({ example: 'Invoice Number', description: 'Human-readable label; also what the engine looks for on the page.' })
  @IsOptional() @IsString() @MaxLength(200)
  label?: string;

  @ApiProperty({ enum: DATA_TYPES, example: 'string' })
  @IsDefined() @IsIn(DATA_TYPES as unknown as string[], { context: { code: 'invalid_data_type' } })
  data_type: DataType;

  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean()
  required?: boolean;

  @ApiPropertyOptional({ example: 'The invoice identifier printed near the top.' })
  @IsOptional() @IsString() @MaxLength(1000)
  description?: string;

  @ApiPropertyOptional({ type: () => FieldValidationDto })
  @IsOptional() @IsObject() @ValidateNested() @Type(() => FieldValidationDto)
  validation?: FieldValidationDto;

  @ApiPropertyOptional({ type: () => [FieldDefDto], description: 'Columns of a `table` field.' })
  @ValidateIf((o: FieldDefDto) => o.data_type === 'table' || o.fields !== undefined)
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(50) @ValidateNested({ each: true }) @Type(() => FieldDefDto)
  fields?: FieldDefDto[];
}

export class ExtractionSchemaDto {
  @ApiProperty({ type: () => [FieldDefDto], description: 'Ordered field definitions.' })
  @IsDefined() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(200) @ValidateNested({ each: true }) @Type(() => FieldDefDto)
  fields: FieldDefDto[];
}

export class TemplateSettingsDto {
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean()
  auto_save?: boolean;

  @ApiPropertyOptional({ default: 0.7, minimum: 0, maximum: 1 }) @IsOptional() @IsNumber() @Min(0) @Max(1)
  confidence_threshold?: number;

  @ApiPropertyOptional({
    default: 'default', enum: OCR_ENGINES,
    description: '`default`: native tesseract when installed on the worker, else tesseract.js; `tesseract`: the native binary (tesseract.js where it is not installed); `tesseract.js`: the bundled WebAssembly build.',
  })
  @IsOptional() @IsIn(OCR_ENGINES as unknown as string[])
  ocr_engine?: string;
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
