import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Subjects, UsageSummaryResponseDto } from '@docket/contracts';
import { RpcClient } from '@docket/messaging';
import { ApiErrors } from '../http/api-errors.decorator.js';
import { Auth, BasicAuthGuard, type AuthContext } from '../identity/index.js';
import { UsageQueryDto } from './usage.query.dto.js';

@ApiTags('Jobs')
@ApiBasicAuth()
@UseGuards(BasicAuthGuard)
@Controller('usage')
export class UsageController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @ApiOperation({
    summary: 'Jobs and spend over the last 7, 30 (default) or 90 days',
    description: '`total_spend` counts charged credits only, never in-flight holds.',
  })
  @ApiOkResponse({ type: UsageSummaryResponseDto })
  @ApiErrors(401, 422)
  summary(@Auth() auth: AuthContext, @Query() q: UsageQueryDto): Promise<UsageSummaryResponseDto> {
    return this.rpc.request(Subjects.billing.usage, { accountId: auth.accountId, period: q.period ?? '30d' });
  }
}
