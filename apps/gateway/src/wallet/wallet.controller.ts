import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Subjects, WalletStatusResponseDto } from '@docket/contracts';
import { RpcClient } from '@docket/messaging';
import { ApiErrors } from '../http/api-errors.decorator.js';
import { Auth, BasicAuthGuard, type AuthContext } from '../identity/index.js';

@ApiTags('Wallet')
@ApiBasicAuth()
@UseGuards(BasicAuthGuard)
@Controller('wallet')
export class WalletController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @ApiOperation({
    summary: 'Wallet balance, spendable amount and freeze state',
    description: 'The cheapest authenticated call; use it to check credentials.',
  })
  @ApiOkResponse({ type: WalletStatusResponseDto })
  @ApiErrors(401, 429)
  get(@Auth() auth: AuthContext): Promise<WalletStatusResponseDto> {
    return this.rpc.request(Subjects.billing.getWallet, { accountId: auth.accountId });
  }
}
