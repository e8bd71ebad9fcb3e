import type { DynamicModule } from '@nestjs/common';
import { RpcClient } from '@docket/messaging';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type { BillingConfig } from './config.js';
import { CoverHoldService } from './holds/cover-hold.service.js';
import { HoldsHandler } from './holds/holds.handler.js';
import { PlaceHoldService } from './holds/place-hold.service.js';
import { ReleaseHoldService } from './holds/release-hold.service.js';
import { ResizeHoldService } from './holds/resize-hold.service.js';
import { pricingFrom } from './pricing/pricing.js';
import { HoldReconcileSweep } from './reconcile/hold-reconcile.sweep.js';
import { JobFinishedConsumer } from './settlement/job-finished.consumer.js';
import { SettleJobService } from './settlement/settle-job.service.js';
import { BILLING_CONFIG, LOGGER, PRICING } from './tokens.js';
import { UsageHandler } from './usage/usage.handler.js';
import { UsageService } from './usage/usage.service.js';
import { WalletHandler } from './wallet/wallet.handler.js';
import { WalletService } from './wallet/wallet.service.js';

export interface BillingDeps {
  ds: DataSource;
  config: BillingConfig;
  log: Logger;
  rpc: RpcClient;
}

export class BillingModule {}

export function appModule(deps: BillingDeps): DynamicModule {
  return {
    module: BillingModule,
    controllers: [WalletHandler, HoldsHandler, UsageHandler],
    providers: [
      { provide: DataSource, useValue: deps.ds },
      { provide: BILLING_CONFIG, useValue: deps.config },
      { provide: LOGGER, useValue: deps.log },
      { provide: RpcClient, useValue: deps.rpc },
      { provide: PRICING, useValue: pricingFrom(deps.config) },
      WalletService,
      PlaceHoldService,
      CoverHoldService,
      ResizeHoldService,
      ReleaseHoldService,
      SettleJobService,
      JobFinishedConsumer,
      HoldReconcileSweep,
      UsageService,
    ],
  };
}
