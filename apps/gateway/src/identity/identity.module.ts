import { Module, type DynamicModule } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { BasicAuthGuard } from './basic-auth.guard.js';
import { DocketBasicStrategy } from './basic.strategy.js';
import { IdentityService } from './identity.service.js';

/**
 * Identity for the gateway. The static module needs a `DataSource` provider (schema `identity`)
 * visible to it, i.e. from a global module; `IdentityModule.register(ds)` supplies it directly.
 */
@Module({ providers: [IdentityService, DocketBasicStrategy, BasicAuthGuard], exports: [IdentityService, BasicAuthGuard] })
export class IdentityModule {
  static register(dataSource: DataSource): DynamicModule {
    return {
      module: IdentityModule,
      providers: [{ provide: DataSource, useValue: dataSource }, IdentityService, DocketBasicStrategy, BasicAuthGuard],
      exports: [IdentityService, BasicAuthGuard],
    };
  }
}
