import { Inject, Injectable } from '@nestjs/common';
import { Streams, TERMINAL_JOB_STATUSES, type JobFinishedEvent } from '@docket/contracts';
import type { HandlerOutcome, JetStreamBus } from '@docket/messaging';
import type { Logger } from 'pino';
import { LOGGER } from '../tokens.js';
import { SettleJobService } from './settle-job.service.js';

/** Durable consumer of `events.v1.job.finished`: every terminal job settles its hold. */
@Injectable()
export class JobFinishedConsumer {
  constructor(
    private readonly settlement: SettleJobService,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  async start(bus: JetStreamBus): Promise<void> {
    await bus.consume<JobFinishedEvent>({
      stream: Streams.events.name,
      durable: Streams.events.durables.billing,
      filterSubject: Streams.events.jobFinished,
      ackWaitMs: 30_000,
      // No JetStream limit: a database outage naks with backoff until it ends, never drops a settlement (ADR 0008).
      maxDeliver: -1,
      concurrency: 4,
      handler: (ev) => this.handle(ev),
    });
  }

  async handle(ev: JobFinishedEvent): Promise<HandlerOutcome> {
    if (!isJobFinished(ev)) {
      this.log.error({ event: ev }, 'malformed job.finished event terminated');
      return { term: 'malformed job.finished' };
    }
    const outcome = await this.settlement.settle(ev);
    this.log.debug({ jobId: ev.jobId, outcome }, 'job.finished handled');
    return { ack: true };
  }
}

function isJobFinished(ev: unknown): ev is JobFinishedEvent {
  if (typeof ev !== 'object' || ev === null) return false;
  const e = ev as Record<string, unknown>;
  return (
    typeof e.jobId === 'string' &&
    typeof e.accountId === 'string' &&
    typeof e.status === 'string' &&
    TERMINAL_JOB_STATUSES.includes(e.status as JobFinishedEvent['status']) &&
    (e.pages === undefined || e.pages === null || typeof e.pages === 'number')
  );
}
