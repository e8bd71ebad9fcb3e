import { Module } from '@nestjs/common';

/** The worker serves no commands; its HTTP side is /livez and /readyz, its NATS side the health ping. */
@Module({})
export class WorkerModule {}
