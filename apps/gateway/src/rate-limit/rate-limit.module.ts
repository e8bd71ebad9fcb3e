import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { DataSource } from 'typeorm';
import type { GatewayConfig } from '../config.js';
import { CONFIG } from '../tokens.js';
import { rateLimitSettings } from './rate-limit.config.js';
import { RateLimitInterceptor } from './rate-limit.interceptor.js';
import { RateLimitService } from './rate-limit.service.js';

/** Per-key rate limits on every authenticated route (needs the global DataSource, CONFIG and LOGGER). */
@Module({
  providers: [
    {
      provide: RateLimitService,
      inject: [DataSource, CONFIG],
      useFactory: (ds: DataSource, cfg: GatewayConfig) => new RateLimitService(ds, rateLimitSettings(cfg)),
    },
    { provide: APP_INTERCEPTOR, useClass: RateLimitInterceptor },
  ],
  exports: [RateLimitService],
})
export class RateLimitModule {}
