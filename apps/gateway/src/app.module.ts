import { Global, Module, type DynamicModule } from '@nestjs/common';
import { RpcClient } from '@docket/messaging';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { AdminController } from './admin/admin.controller.js';
import { AdminGuard, AdminToken } from './admin/admin-token.js';
import { AdminOperations } from './admin/admin.operations.js';
import { ArtifactsController } from './artifacts/artifacts.controller.js';
import { DirectUploadService } from './artifacts/direct-upload.service.js';
import { BatchController } from './batch/batch.controller.js';
import type { GatewayConfig } from './config.js';
import { ExtractController } from './extract/extract.controller.js';
import { CredentialCache, IdentityModule, IdentityService } from './identity/index.js';
import { JobsController } from './jobs/jobs.controller.js';
import { ReviewController } from './review/review.controller.js';
import { MemoryController } from './memory/memory.controller.js';
import { PipelinesController } from './pipelines/pipelines.controller.js';
import { RateLimitModule } from './rate-limit/rate-limit.module.js';
import { RateLimitService } from './rate-limit/rate-limit.service.js';
import { LlmsTxtService } from './system/llms-txt.service.js';
import { SystemController } from './system/system.controller.js';
import { TemplatesController } from './templates/templates.controller.js';
import { UsageController } from './usage/usage.controller.js';
import { WalletController } from './wallet/wallet.controller.js';
import { WebhooksController } from './webhooks/webhooks.controller.js';
import { CONFIG, LOGGER } from './tokens.js';

export interface GatewayDeps {
  ds: DataSource;
  rpc: RpcClient;
  cfg: GatewayConfig;
  log: Logger;
  /** Verified credentials (IdentityService answers from it while the revocation channel listens). */
  credentials?: CredentialCache;
  /**
   * Admin mode (ADMIN_TOKEN): the token and a NATS client as the operator's NATS user. Without it every `/admin/…`
   * route answers 404.
   */
  admin?: { token: string; operatorRpc: RpcClient };
}

/** The admin routes' token and operations; both exist without admin mode so the routes (and Swagger) are always there. */
function adminProviders(deps: GatewayDeps) {
  const operatorRpc = deps.admin?.operatorRpc;
  return [
    { provide: AdminToken, useValue: new AdminToken(deps.admin?.token) },
    AdminGuard,
    {
      provide: AdminOperations,
      inject: [IdentityService, RateLimitService],
      useFactory: (identity: IdentityService, rateLimits: RateLimitService) =>
        new AdminOperations({
          identity: async () => identity,
          rateLimits: async () => rateLimits,
          operator: async () => {
            // Unreachable: AdminGuard answers 404 before any operation runs when admin mode is off.
            if (!operatorRpc) throw new Error('admin mode is off');
            return operatorRpc;
          },
        }),
    },
  ];
}

/** Process-wide singletons made at boot, visible to every module (identity needs the DataSource). */
@Global()
@Module({})
class CoreModule {
  static register(deps: GatewayDeps): DynamicModule {
    const providers = [
      { provide: DataSource, useValue: deps.ds },
      { provide: RpcClient, useValue: deps.rpc },
      { provide: CONFIG, useValue: deps.cfg },
      { provide: LOGGER, useValue: deps.log },
      ...(deps.credentials ? [{ provide: CredentialCache, useValue: deps.credentials }] : []),
    ];
    return { module: CoreModule, providers, exports: providers.map((p) => p.provide) };
  }
}

@Module({})
export class GatewayModule {
  static register(deps: GatewayDeps): DynamicModule {
    return {
      module: GatewayModule,
      imports: [CoreModule.register(deps), IdentityModule, RateLimitModule],
      controllers: [
        SystemController,
        ExtractController,
        ArtifactsController,
        BatchController,
        PipelinesController,
        JobsController,
        ReviewController,
        MemoryController,
        TemplatesController,
        WebhooksController,
        WalletController,
        UsageController,
        AdminController,
      ],
      providers: [LlmsTxtService, DirectUploadService, ...adminProviders(deps)],
    };
  }
}
