import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { Subjects, type ServiceName } from '@docket/contracts';
import { RpcClient, runChecks, type HealthReport } from '@docket/messaging';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import type { GatewayConfig } from '../config.js';
import { CONFIG } from '../tokens.js';
import { LlmsTxtService } from './llms-txt.service.js';
import { API_VERSION } from './version.js';

class StatusResponseDto {
  @ApiProperty({ example: 'API is running' }) status: string;
  @ApiProperty({ example: '2026-11-23T10:00:00.000Z' }) timestamp: string;
}

class HealthResponseDto extends StatusResponseDto {
  @ApiPropertyOptional({
    example: {
      database: { status: 'up', latency_ms: 2 },
      queue: { status: 'up', latency_ms: 3 },
      storage: { status: 'up', latency_ms: 4 },
      model: { status: 'up', latency_ms: 9 },
    },
  })
  checks: Record<string, unknown>;
}

class VersionResponseDto {
  @ApiProperty({ example: '1.0.0' }) version: string;
  @ApiProperty({ example: 'development', enum: ['production', 'staging', 'development'] }) environment: string;
  @ApiProperty({ example: '2026-11-23T10:00:00.000Z', description: 'Server clock; helps diagnose webhook signature skew.' })
  timestamp: string;
}

const SERVICES: ServiceName[] = ['artifact', 'template', 'billing', 'webhook-dispatcher', 'extraction-worker'];

/** Unauthenticated endpoints (spec §4.9); they never touch the wallet or rate limits. */
@ApiTags('System')
@Controller()
export class SystemController {
  constructor(
    private readonly ds: DataSource,
    private readonly rpc: RpcClient,
    private readonly llms: LlmsTxtService,
    @Inject(CONFIG) private readonly cfg: GatewayConfig,
  ) {}

  @Get('status')
  @ApiOperation({ summary: 'Liveness: always "API is running"' })
  @ApiOkResponse({ type: StatusResponseDto })
  status(): StatusResponseDto {
    return { status: 'API is running', timestamp: new Date().toISOString() };
  }

  @Get('health')
  @ApiOperation({
    summary: 'Readiness: database, queue, storage and model service',
    description: '503 with `status: "degraded"` and the failing checks when a dependency is down.',
  })
  @ApiOkResponse({ type: HealthResponseDto })
  @ApiServiceUnavailableResponse({ type: HealthResponseDto })
  async health(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthResponseDto> {
    const services = Object.fromEntries(
      await Promise.all(
        SERVICES.map(async (s) => {
          try {
            const r = await this.rpc.request<{ checks: HealthReport }>(Subjects.health.ping(s), {}, 3000);
            return [s, r.checks] as const;
          } catch (err) {
            return [s, { reachable: { status: 'down' as const, latency_ms: 0, error: (err as Error).message } }] as const;
          }
        }),
      ),
    ) as Record<ServiceName, HealthReport>;
    const own = await runChecks({ database: () => this.ds.query('SELECT 1') });
    const worst = (...reports: (HealthReport | undefined)[]) =>
      reports.flatMap((r) => Object.values(r ?? {})).every((c) => c.status === 'up') ? 'up' : 'down';
    const checks = {
      database: {
        status: worst(
          own,
          pick(services.artifact, 'database'),
          pick(services.template, 'database'),
          pick(services.billing, 'database'),
          pick(services['webhook-dispatcher'], 'database'),
        ),
      },
      queue: { status: worst(...SERVICES.map((s) => pick(services[s], 'queue', 'reachable'))) },
      // Only artifact holds storage credentials (the worker uses presigned URLs from it).
      storage: { status: worst(pick(services.artifact, 'storage')) },
      model: { status: worst(pick(services['extraction-worker'], 'model', 'reachable')) },
      services,
    };
    const healthy = ['database', 'queue', 'storage', 'model'].every(
      (k) => (checks as Record<string, { status?: string }>)[k].status === 'up',
    );
    void reply.status(healthy ? 200 : 503);
    return { status: healthy ? 'API is running' : 'degraded', timestamp: new Date().toISOString(), checks };
  }

  @Get('version')
  @ApiOperation({ summary: 'API version, deployment environment and server clock' })
  @ApiOkResponse({ type: VersionResponseDto })
  version(): VersionResponseDto {
    return { version: API_VERSION, environment: this.cfg.DOCKET_ENVIRONMENT, timestamp: new Date().toISOString() };
  }

  @Get('llms.txt')
  @Header('content-type', 'text/plain; charset=utf-8')
  @ApiOperation({ summary: 'Machine-readable tool catalogue of the endpoints (llms.txt format)' })
  llmsTxt(): string {
    return this.llms.render();
  }
}

function pick(report: HealthReport | undefined, ...names: string[]): HealthReport | undefined {
  if (!report) return undefined;
  const out: HealthReport = {};
  for (const n of names) if (report[n]) out[n] = report[n];
  return out;
}
