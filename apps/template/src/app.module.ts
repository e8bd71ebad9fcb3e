import { Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from '@docket/config';
import { DataSource } from 'typeorm';
import type { TemplateConfig } from './config.js';
import { TemplateCommandService } from './templates/template-command.service.js';
import { TemplateDeleteService } from './templates/template-delete.service.js';
import { TemplateQueryService } from './templates/template-query.service.js';
import type { TemplateUsage } from './templates/template-usage.client.js';
import { TemplateHandler } from './templates/template.handler.js';
import { TemplateStore } from './templates/template.store.js';
import { TEMPLATE_CONFIG, TEMPLATE_LOGGER, TEMPLATE_USAGE } from './tokens.js';

export interface AppDeps {
  ds: DataSource;
  config: TemplateConfig;
  log: Logger;
  usage: TemplateUsage;
}

@Module({})
class TemplateAppModule {}

export function appModule(deps: AppDeps): DynamicModule {
  return {
    module: TemplateAppModule,
    controllers: [TemplateHandler],
    providers: [
      { provide: DataSource, useValue: deps.ds },
      { provide: TEMPLATE_CONFIG, useValue: deps.config },
      { provide: TEMPLATE_LOGGER, useValue: deps.log },
      { provide: TEMPLATE_USAGE, useValue: deps.usage },
      TemplateStore,
      TemplateQueryService,
      TemplateCommandService,
      TemplateDeleteService,
    ],
  };
}
