import { Subjects, type TemplateInUseReply, type TemplateRef } from '@docket/contracts';
import { DocketError } from '@docket/errors';
import type { RpcClient } from '@docket/messaging';

/** Answers whether an in-flight job uses a template. Only `artifact` knows; see `ArtifactTemplateUsage`. */
export interface TemplateUsage {
  isInUse(accountId: string, templateId: string): Promise<boolean>;
}

/**
 * Asks `artifact` over NATS. No answer (nobody serving, time-out, malformed reply) is a 503:
 * a hard delete is irreversible, so it is never done on a guess.
 */
export class ArtifactTemplateUsage implements TemplateUsage {
  constructor(
    private readonly rpc: RpcClient,
    private readonly timeoutMs: number,
  ) {}

  async isInUse(accountId: string, templateId: string): Promise<boolean> {
    const ref: TemplateRef = { accountId, templateId };
    let reply: TemplateInUseReply;
    try {
      reply = await this.rpc.request<TemplateInUseReply>(Subjects.artifact.templateInUse, ref, this.timeoutMs);
    } catch (err) {
      throw new DocketError('service_unavailable', 'Cannot confirm the template is unused by in-flight jobs; try again later', {
        cause: (err as DocketError).code ?? 'internal_error',
      });
    }
    if (typeof reply?.in_use !== 'boolean') {
      throw new DocketError('service_unavailable', 'Cannot confirm the template is unused by in-flight jobs; try again later');
    }
    return reply.in_use;
  }
}
