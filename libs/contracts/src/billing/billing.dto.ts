import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Max,
  Min,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { AccountScoped } from '../common/account-scoped.js';
import { MAX_ARTIFACT_BYTES, MAX_DOCUMENT_PAGES } from '../common/limits.js';

export class WalletStatusResponseDto {
  @ApiProperty({ example: 100, description: 'Deposited credits not yet finalised as spend.' }) balance: number;
  @ApiProperty({ example: 97.5, description: 'balance minus holds for in-flight jobs.' }) spendable: number;
  @ApiProperty({ example: false, description: 'When true, new jobs are rejected with 402.' }) is_frozen: boolean;
  @ApiProperty({ type: 'string', nullable: true, example: null, description: 'payment_failed, manual_freeze, compliance_review, …' })
  frozen_reason: string | null;
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
  @IsDefined() @IsString() @MaxLength(64) jobId: string;
  @IsBoolean() sandbox: boolean;
  @IsInt() @Min(1) @Max(MAX_ARTIFACT_BYTES) artifactSize: number;
  @IsDefined() @IsString() @MaxLength(255) mimeType: string;
}

export class PlaceHoldReply {
  jobId: string;
  /** Credits held. */
  amount: number;
}

/** One job of a batch hold. */
export class BatchHoldItem {
  @IsDefined() @IsString() @MaxLength(64) jobId: string;
  @IsInt() @Min(1) @Max(MAX_ARTIFACT_BYTES) artifactSize: number;
  @IsDefined() @IsString() @MaxLength(255) mimeType: string;
}

/**
 * Holds for every job of a batch, all or nothing, in one transaction under one wallet lock: either
 * every job is held or none is (`wallet_frozen` / `insufficient_funds` with the batch total).
 * Idempotent per job id: jobs already held count as held and are returned unchanged.
 */
export class PlaceBatchHoldCommand extends AccountScoped {
  @IsBoolean() sandbox: boolean;
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => BatchHoldItem)
  items: BatchHoldItem[];
}

export class PlaceBatchHoldReply {
  holds: PlaceHoldReply[];
  /** Credits held for the whole batch. */
  total: number;
}

export class ReleaseHoldCommand extends AccountScoped {
  @IsDefined() @IsString() @MaxLength(64) jobId: string;
  /** `unconfirmed`: a batch file still not uploaded when its batch was confirmed (spec §3.1); a later confirm holds it again. */
  @IsOptional() @IsIn(['cancelled', 'expired', 'aborted', 'unconfirmed']) reason?: 'cancelled' | 'expired' | 'aborted' | 'unconfirmed';
}

/**
 * Sent by confirm-upload (and confirm-batch-upload per file) with the stored object's real size (HEAD):
 * the job's hold becomes at least the estimate for that size. A hold released as `unconfirmed` is held
 * again. `wallet_frozen` / `insufficient_funds` (402) when the wallet cannot cover the difference; then
 * nothing changes. Idempotent: a hold that already covers the size is returned as it is.
 */
export class CoverHoldCommand extends AccountScoped {
  @IsDefined() @IsString() @MaxLength(64) jobId: string;
  /** The stored object's size; uploads are bound to the declared `artifact_size` (≤ MAX_ARTIFACT_BYTES), so no upper bound here. */
  @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER) artifactSize: number;
}

/**
 * Sent by artifact once the worker counted the document's pages, before any page is read (ADR 0005): the job's hold
 * becomes `pages` × the price recorded on it (it may shrink). When the wallet cannot cover that (hold + spendable),
 * `partial` decides: false → `insufficient_funds` (or `wallet_frozen`) and nothing changes; true → the hold becomes
 * the whole pages the wallet covers (at least one, else the same error). Idempotent for the same page count.
 */
export class ResizeHoldCommand extends AccountScoped {
  @IsDefined() @IsString() @MaxLength(64) jobId: string;
  @IsInt() @Min(1) @Max(MAX_DOCUMENT_PAGES) pages: number;
  @IsBoolean() partial: boolean;
}

export class ResizeHoldReply {
  jobId: string;
  /** Credits now held. */
  amount: number;
  /** Pages the hold covers: `pages`, or fewer with `partial`. */
  pages: number;
}

/** Outcome of `releaseHold`: `released` now, or what the hold already was (idempotent); `unknown` for a job without a hold. */
export class ReleaseHoldReply {
  jobId: string;
  status: 'released' | 'settled' | 'unknown';
  /** Credits that were held for the job (0 when unknown). */
  amount: number;
}

export const USAGE_PERIODS = ['7d', '30d', '90d'] as const;
export type UsagePeriod = (typeof USAGE_PERIODS)[number];

/** `GET /usage`: jobs and spend of the account over the last 7, 30 (default) or 90 days. */
export class UsageQuery extends AccountScoped {
  @IsOptional() @IsIn(USAGE_PERIODS as unknown as string[]) period?: UsagePeriod;
}

export class UsageSummaryResponseDto {
  @ApiProperty({ enum: USAGE_PERIODS, example: '30d' }) period: UsagePeriod;
  @ApiProperty({ example: '2026-10-24T12:00:00.000Z' }) period_start: string;
  @ApiProperty({ example: '2026-11-23T12:00:00.000Z' }) period_end: string;
  @ApiProperty({ example: 12 }) total_jobs: number;
  @ApiProperty({ example: 10 }) successful_jobs: number;
  @ApiProperty({ example: 1 }) failed_jobs: number;
  @ApiProperty({ example: 23, description: 'Credits charged in the period; excludes in-flight holds.' }) total_spend: number;
}
