import { Controller, Get, Inject, Module, Res, ServiceUnavailableException, type DynamicModule } from '@nestjs/common';
import { HealthCheckService, HealthIndicatorService, TerminusModule, type HealthCheckResult } from '@nestjs/terminus';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';

export type HealthCheck = () => Promise<unknown>;

/** How long one dependency may take before readiness reports it down. */
export const PROBE_TIMEOUT_MS = 2000;

/**
 * Kubernetes probes, served by every service on its HTTP port (outside any global prefix):
 *
 * - `GET /livez`: the process answers. It never looks at a dependency, so an outage of Postgres, NATS or
 *   S3 does not restart pods (it makes them unready instead).
 * - `GET /readyz`: a real round trip to each of the service's own dependencies (a query, a NATS flush,
 *   a HEAD on the bucket) and the schema at the migration version the code expects; 503 when one fails.
 */
export function probesModule(checks: Record<string, HealthCheck>): DynamicModule {
  @ApiExcludeController()
  @Controller()
  class ProbesController {
    constructor(
      @Inject(HealthCheckService) private readonly health: HealthCheckService,
      @Inject(HealthIndicatorService) private readonly indicators: HealthIndicatorService,
    ) {}

    @Get('livez')
    livez(): Promise<HealthCheckResult> {
      return this.health.check([]);
    }

    @Get('readyz')
    async readyz(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthCheckResult> {
      const indicators = Object.entries(checks).map(
        ([name, check]) =>
          () =>
            this.indicators
              .check(name)
              .attempt(async () => {
                await check();
              })
              .withTimeout(PROBE_TIMEOUT_MS),
      );
      try {
        return await this.health.check(indicators);
      } catch (err) {
        // Terminus reports a failed check as a 503 exception; answer its body as is (no error envelope).
        if (!(err instanceof ServiceUnavailableException)) throw err;
        void reply.status(503);
        return err.getResponse() as HealthCheckResult;
      }
    }
  }
  @Module({ imports: [TerminusModule.forRoot({ errorLogStyle: 'json' })], controllers: [ProbesController] })
  class ProbesModule {}
  return { module: ProbesModule };
}
