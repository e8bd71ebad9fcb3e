import { Subjects, type LayoutLearnMessage, type LearnSourceReply } from '@docket/contracts';
import { ExtractionError, type ExtractionEngine } from '@docket/extraction';
import type { HandlerOutcome, RpcClient } from '@docket/messaging';
import { getPresigned } from '@docket/storage';
import type { Logger } from 'pino';

/** First delay before a learning that met an infrastructure failure is tried again; doubled per delivery. */
const FIRST_RETRY_MS = 1000;
/** Longest wait between tries of one learning. */
const MAX_RETRY_MS = 60_000;
/** Deliveries of one learning before it is given up (it is an improvement, never a job's outcome). */
export const LEARN_MAX_DELIVER = 5;

/**
 * One delivery of `jobs.v1.learn` (ADR 0014): a person confirmed a job's values (a correction or an approval); the
 * engine reads the job's source again and learns where those values stand, and artifact stores the exemplar for the
 * job's account. A document the engine cannot read teaches nothing (acked); an unreachable artifact or storage is
 * tried again later.
 */
export class LearnLayoutService {
  constructor(
    private readonly engine: ExtractionEngine,
    private readonly rpc: RpcClient,
    private readonly log: Logger,
    private readonly timeoutMs: number,
  ) {}

  async handle(msg: LayoutLearnMessage, ctx: { deliveryCount: number }): Promise<HandlerOutcome> {
    const log = this.log.child({ jobId: msg.jobId, learn: msg.source, delivery: ctx.deliveryCount });
    if (!this.engine.learnLayout) return { ack: true };
    try {
      const src = await this.rpc.request<LearnSourceReply>(Subjects.artifact.learnSource, { jobId: msg.jobId });
      if (!src.proceed || !src.sourceGetUrl) {
        log.info('nothing to learn: the job is gone or its account turned layout memory off');
        return { ack: true };
      }
      const bytes = await getPresigned(src.sourceGetUrl);
      const input = { bytes, mimeType: src.mimeType ?? 'application/octet-stream', filename: src.filename ?? 'document' };
      const learned = await this.engine.learnLayout(input, msg.schema, msg.values, {
        patternOwner: msg.accountId,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const reply = await this.rpc.request<{ saved: boolean }>(Subjects.artifact.saveExemplar, {
        jobId: msg.jobId,
        version: msg.version,
        source: msg.source,
        fingerprint: learned.fingerprint,
        anchors: learned.anchors,
      });
      log.info({ anchors: learned.anchors.length, saved: reply.saved }, 'layout learned');
      return { ack: true };
    } catch (err) {
      if (err instanceof ExtractionError) {
        log.info({ code: err.code }, 'layout not learned: the document could not be read');
        return { ack: true };
      }
      if (ctx.deliveryCount >= LEARN_MAX_DELIVER) {
        log.warn({ err }, 'layout not learned: giving up after repeated failures');
        return { ack: true };
      }
      const retryInMs = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, ctx.deliveryCount - 1));
      log.warn({ err, retryInMs }, 'layout learning interrupted; will be retried');
      return { retryInMs };
    }
  }
}
