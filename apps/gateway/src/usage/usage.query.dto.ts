import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { USAGE_PERIODS, type UsagePeriod } from '@docket/contracts';

/** HTTP query of `GET /usage` (the NATS `UsageQuery` carries the account too). */
export class UsageQueryDto {
  @ApiPropertyOptional({ enum: USAGE_PERIODS, default: '30d' })
  @IsOptional()
  @IsIn(USAGE_PERIODS as unknown as string[])
  period?: UsagePeriod;
}
