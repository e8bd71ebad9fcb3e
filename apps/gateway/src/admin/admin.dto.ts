import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';

/** The bounds billing's own commands enforce (OpenWalletCommand, DepositCommand, FreezeCommand). */
export const MAX_CREDITS = 1_000_000_000;
export const MIN_DEPOSIT_CREDITS = 0.000001;
export const MAX_ACCOUNT_NAME_LENGTH = 200;
export const MAX_FREEZE_REASON_LENGTH = 64;
/** Per-key override bounds of `set-rate-limit` (the CLI's `--per-minute`). */
export const MIN_RATE_PER_MINUTE = 1;
export const MAX_RATE_PER_MINUTE = 1_000_000;
export const ADMIN_PAGE_DEFAULT_SIZE = 20;
export const ADMIN_PAGE_MAX_SIZE = 100;

export class AdminAccountsQueryDto {
  @ApiPropertyOptional({ default: 1, minimum: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  page?: number = 1;

  @ApiPropertyOptional({ default: ADMIN_PAGE_DEFAULT_SIZE, minimum: 1, maximum: ADMIN_PAGE_MAX_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(ADMIN_PAGE_MAX_SIZE)
  size?: number = ADMIN_PAGE_DEFAULT_SIZE;
}

export class CreateAccountBodyDto {
  @ApiProperty({ example: 'Example Trading Ltd', minLength: 1, maxLength: MAX_ACCOUNT_NAME_LENGTH })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_ACCOUNT_NAME_LENGTH)
  name: string;

  @ApiPropertyOptional({ example: 100, default: 0, minimum: 0, maximum: MAX_CREDITS, description: 'Credits the wallet opens with.' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_CREDITS)
  credits?: number = 0;
}

export class DepositBodyDto {
  @ApiProperty({ example: 50, minimum: MIN_DEPOSIT_CREDITS, maximum: MAX_CREDITS })
  @IsDefined()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(MIN_DEPOSIT_CREDITS)
  @Max(MAX_CREDITS)
  credits: number;
}

export class FreezeBodyDto {
  @ApiPropertyOptional({ example: 'manual_freeze', default: 'manual_freeze', maxLength: MAX_FREEZE_REASON_LENGTH })
  @IsOptional()
  @IsString()
  @Matches(/^[a-z0-9_]+$/, { message: 'reason must be lowercase letters, digits and underscores' })
  @MaxLength(MAX_FREEZE_REASON_LENGTH)
  reason?: string;
}

export class RateLimitBodyDto {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 1200,
    minimum: MIN_RATE_PER_MINUTE,
    maximum: MAX_RATE_PER_MINUTE,
    description: 'Requests per minute for this key; `null` drops the override (the environment default applies again).',
  })
  @ValidateIf((_o, v) => v !== null)
  @IsDefined()
  @IsInt()
  @Min(MIN_RATE_PER_MINUTE)
  @Max(MAX_RATE_PER_MINUTE)
  per_minute: number | null;
}

class IssuedCredentialsDto {
  @ApiProperty({ example: 'dk_live_4f9Qm2Lx8Rt7Vz1Kp3Nw6Hy5' }) api_key: string;
  @ApiProperty({ example: 'sec_01jd3q8y4n6z2xk7m5t9w0abcd' }) secret_id: string;
  @ApiProperty({ example: 'sk_b8Jr2Xq9Lm4Tz7Wc1Vn6Ks3Hp5Dy0Fg', description: 'Shown once: only its SHA-256 is stored.' })
  secret: string;
}

export class CreatedAccountDto {
  @ApiProperty({ example: 'acct_01jd3q8y4n6z2xk7m5t9w0abcd' }) account_id: string;
  @ApiProperty({ type: IssuedCredentialsDto }) sandbox: IssuedCredentialsDto;
  @ApiProperty({ type: IssuedCredentialsDto }) live: IssuedCredentialsDto;
}

export class RotatedSecretDto extends IssuedCredentialsDto {}

class AccountKeyDto {
  @ApiProperty({ example: 'dk_test_4f9Qm2Lx8Rt7Vz1Kp3Nw6Hy5' }) api_key: string;
  @ApiProperty({ enum: ['sandbox', 'live'] }) environment: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) revoked_at: string | null;
}

class AccountSummaryDto {
  @ApiProperty({ example: 'acct_01jd3q8y4n6z2xk7m5t9w0abcd' }) account_id: string;
  @ApiProperty({ example: 'Example Trading Ltd' }) name: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ type: [AccountKeyDto], description: 'Never a secret.' }) keys: AccountKeyDto[];
}

export class AccountsPageDto {
  @ApiProperty({ type: [AccountSummaryDto] }) accounts: AccountSummaryDto[];
  @ApiProperty({ example: 1 }) page: number;
  @ApiProperty({ example: 20 }) size: number;
  @ApiProperty({ example: 2 }) total: number;
}

class SecretRecordDto {
  @ApiProperty({ example: 'sec_01jd3q8y4n6z2xk7m5t9w0abcd' }) secret_id: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) last_used_at: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) revoked_at: string | null;
}

export class KeySecretsDto {
  @ApiProperty({ example: 'dk_live_4f9Qm2Lx8Rt7Vz1Kp3Nw6Hy5' }) api_key: string;
  @ApiProperty({ type: [SecretRecordDto], description: 'Oldest first; never the secret itself.' }) secrets: SecretRecordDto[];
}

export class RevokedSecretDto {
  @ApiProperty() api_key: string;
  @ApiProperty() secret_id: string;
  @ApiProperty({ format: 'date-time' }) revoked_at: string;
}

export class RevokedKeyDto {
  @ApiProperty() api_key: string;
  @ApiProperty({ format: 'date-time' }) revoked_at: string;
}

export class KeyRateLimitDto {
  @ApiProperty() api_key: string;
  @ApiProperty({ enum: ['sandbox', 'live'] }) environment: string;
  @ApiProperty({ example: 1200 }) requests_per_minute: number;
  @ApiProperty({ enum: ['override', 'default'] }) source: string;
}

/** `acct_` + lowercase ulid, as billing's commands require it; anything else is 422 `invalid_query` here. */
export class AccountParamDto {
  @ApiProperty({ example: 'acct_01jd3q8y4n6z2xk7m5t9w0abcd' })
  @IsString()
  @MaxLength(64)
  @Matches(/^acct_[0-9a-z]+$/, { message: 'account_id must look like acct_…' })
  account_id: string;
}
