import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AccountScoped, DepositCommand, FreezeCommand, OpenWalletCommand, Subjects } from '@docket/contracts';
import { WalletService } from './wallet.service.js';

@Controller()
export class WalletHandler {
  constructor(private readonly wallets: WalletService) {}

  @MessagePattern(Subjects.billing.openWallet)
  open(@Payload() cmd: OpenWalletCommand) {
    return this.wallets.open(cmd);
  }

  @MessagePattern(Subjects.billing.getWallet)
  get(@Payload() q: AccountScoped) {
    return this.wallets.get(q);
  }

  @MessagePattern(Subjects.billing.deposit)
  deposit(@Payload() cmd: DepositCommand) {
    return this.wallets.deposit(cmd);
  }

  @MessagePattern(Subjects.billing.freeze)
  freeze(@Payload() cmd: FreezeCommand) {
    return this.wallets.freeze(cmd);
  }

  @MessagePattern(Subjects.billing.unfreeze)
  unfreeze(@Payload() cmd: AccountScoped) {
    return this.wallets.unfreeze(cmd);
  }
}
