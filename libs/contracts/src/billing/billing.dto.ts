import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsIn, IsInt, IsNumber, IsOptional, IsString, Max, Min, MaxLength } from 'class-validator';
import { AccountScoped } from '../common/account-scoped.js';

export class WalletStatusResponseDto {
  @ApiProperty({ example: 100, description: 'Deposited credits not yet finalised as spend.' }) balance: number;
  @ApiProperty({ example: 97.5, description: 'balance minus holds for in-flight jobs.' }) spendable: number;
  @ApiProperty({ example: false, description: 'When true, new jobs are rejected with 402.' }) is_frozen: boolean;
  @ApiProperty({ type: 'string', nullable: true, example: null, description: 'payment_failed, manual_freeze, compliance_review, …' }) frozen_reason: string | null;
}

export class OpenWalletCommand extends AccountScoped {
  @IsNumber() @Min(0) @Max(1e9) initialCredits: number;
}

export class DepositCommand extends AccountScoped {
  @IsNumber() @Min(0.000001) @Max(1e9) credits: number;
  @IsOptional() @IsString() @MaxLength(200) reference?: string;
}

export class FreezeCommand extends AccountScoped {
  @IsDefined() @IsString() @MaxLength(64) reason: string;
}

/** Hold an estimate for one job. Idempotent per jobId. Sandbox holds are zero and never fail on funds. */
export class PlaceHoldCommand extends AccountScoped {
  @IsDefined() @IsString() jobId: string;
  @IsBoolean() sandbox: boolean;
  @IsInt() @Min(1) artifactSize: number;
  @IsDefined() @IsString() mimeType: string;
}

export class PlaceHoldReply {
  jobId: string;
  /** Credits held. */
  amount: number;
}

export class ReleaseHoldCommand extends AccountScoped {
  @IsDefined() @IsString() jobId: string;
  @IsOptional() @IsIn(['cancelled', 'expired', 'aborted']) reason?: 'cancelled' | 'expired' | 'aborted';
}
