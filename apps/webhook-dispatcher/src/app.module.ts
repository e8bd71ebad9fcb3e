import { Module, type DynamicModule } from '@nestjs/common';
import { RpcClient } from '@docket/messaging';
import { DataSource } from 'typeorm';
import type { Logger } from 'pino';
import type { WebhookConfig } from './config.js';
import { DeliveriesHandler } from './deliveries/deliveries.handler.js';
import { DeliveryLogService } from './deliveries/delivery-log.service.js';
import { HttpSender } from './dispatch/http-sender.js';
import { CorrectionDeliveryService } from './dispatch/correction-delivery.service.js';
import { WebhookDeliveryService } from './dispatch/webhook-delivery.service.js';
import { SecretCipher } from './security/secret-cipher.js';
import { UrlPolicy } from './security/url-policy.js';
import { CONFIG, LOGGER } from './tokens.js';
import { WebhookRegistryService } from './webhooks/webhook-registry.service.js';
import { WebhooksHandler } from './webhooks/webhooks.handler.js';

export interface AppDeps {
  ds: DataSource;
  config: WebhookConfig;
  log: Logger;
  cipher: SecretCipher;
  urls: UrlPolicy;
  sender: HttpSender;
  rpc: RpcClient;
}

@Module({})
class WebhookDispatcherModule {}

export function appModule(deps: AppDeps): DynamicModule {
  return {
    module: WebhookDispatcherModule,
    controllers: [WebhooksHandler, DeliveriesHandler],
    providers: [
      { provide: DataSource, useValue: deps.ds },
      { provide: CONFIG, useValue: deps.config },
      { provide: LOGGER, useValue: deps.log },
      { provide: SecretCipher, useValue: deps.cipher },
      { provide: UrlPolicy, useValue: deps.urls },
      { provide: HttpSender, useValue: deps.sender },
      { provide: RpcClient, useValue: deps.rpc },
      WebhookRegistryService,
      DeliveryLogService,
      WebhookDeliveryService,
      CorrectionDeliveryService,
    ],
  };
}
