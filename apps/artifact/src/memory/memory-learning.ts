import { Streams, type ExemplarSource, type LayoutLearnMessage } from '@docket/contracts';
import { enqueueOutbox } from '@docket/messaging';
import type { EntityManager } from 'typeorm';
import { ulid } from 'ulid';
import { ARTIFACT_SCHEMA } from '../config.js';
import { AccountMemoryEntity } from '../entities/account-memory.entity.js';
import type { JobEntity } from '../entities/job.entity.js';

/** Whether the account's layout memory is on (no row: on, the default). */
export async function memoryEnabled(m: EntityManager, accountId: string): Promise<boolean> {
  const row = await m.findOneBy(AccountMemoryEntity, { accountId });
  return row?.enabled ?? true;
}

/**
 * In the transaction that confirms a job's values (a correction or an approval): queue `jobs.v1.learn` through the
 * outbox, so the worker learns the layout exactly when the confirmation is stored. Nothing for sandbox jobs (their
 * results are synthetic) or when the account turned memory off.
 */
export async function queueLearning(
  m: EntityManager,
  job: JobEntity,
  values: Record<string, unknown>,
  source: ExemplarSource,
  version: number,
): Promise<void> {
  if (job.sandbox || !(await memoryEnabled(m, job.accountId))) return;
  const msg: LayoutLearnMessage = {
    jobId: job.id,
    artifactId: job.artifactId,
    accountId: job.accountId,
    templateId: job.templateId,
    source,
    version,
    schema: job.schema,
    values,
  };
  const id = `lrn_${ulid().toLowerCase()}`;
  await enqueueOutbox(m, ARTIFACT_SCHEMA, Streams.jobs.learn, msg, id);
}
