import { Inject, Injectable } from '@nestjs/common';
import { resultKeys, type ArtifactRecordDto, type ArtifactRef, type UpdateArtifactCommand } from '@docket/contracts';
import { S3Storage } from '@docket/storage';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { isTerminal, toArtifactRecord } from '../artifact.mapper.js';
import { ArtifactEntity } from '../entities/artifact.entity.js';
import { JobEntity } from '../entities/job.entity.js';
import { JobResultEntity } from '../entities/job-result.entity.js';
import { LayoutExemplarEntity } from '../entities/layout-exemplar.entity.js';
import { LOGGER } from '../tokens.js';
import { findOwned } from './artifact-access.js';
import { cancelLockedJob, lockLatestJob } from './job-cancel.js';

/** Write side of the artifact resource: PATCH (user metadata only) and DELETE (hard, immediate). */
@Injectable()
export class ArtifactUpdateService {
  constructor(
    private readonly ds: DataSource,
    private readonly storage: S3Storage,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  /** Only filename, description and tags change; the validation pipe already stripped everything else. */
  async update(cmd: UpdateArtifactCommand): Promise<ArtifactRecordDto> {
    return this.ds.transaction(async (m) => {
      const artifact = await findOwned(m, cmd, true);
      const patch: Partial<ArtifactEntity> = {};
      if (cmd.body.filename !== undefined) patch.filename = cmd.body.filename;
      if (cmd.body.description !== undefined) patch.description = cmd.body.description;
      if (cmd.body.tags !== undefined) patch.tags = cmd.body.tags;
      if (Object.keys(patch).length) await m.update(ArtifactEntity, { id: artifact.id }, patch);
      const jobs = await m.find(JobEntity, { where: { artifactId: artifact.id }, order: { createdAt: 'ASC', id: 'ASC' } });
      return toArtifactRecord({ ...artifact, ...patch }, jobs);
    });
  }

  /**
   * Spec §4.2: removes record, jobs, raw object and result objects; no soft delete. Order: cancel an
   * in-flight job (hold released through the outbox), delete the objects, then the rows. If storage
   * fails the rows stay and the call can be repeated; a worker that reports on a deleted job gets
   * `applied: false` and its freshly written result objects are deleted (see JobProgressService).
   */
  async delete(ref: ArtifactRef): Promise<void> {
    const { artifact, jobs } = await this.ds.transaction(async (m) => {
      const a = await findOwned(m, ref, true);
      const latest = await lockLatestJob(m, a);
      if (latest && !isTerminal(latest.status)) await cancelLockedJob(m, latest, a);
      return { artifact: a, jobs: await m.find(JobEntity, { where: { artifactId: a.id } }) };
    });
    const keys = new Set<string>([artifact.storageKey]);
    // Only the keys derived from this artifact's jobs: never a key a (pre-fix) worker report stored.
    for (const j of jobs) {
      const k = resultKeys(artifact.accountId, artifact.id, j.id);
      keys.add(k.json).add(k.markdown);
    }
    for (const key of keys) await this.storage.delete(key);
    await this.ds.transaction(async (m) => {
      // A rerun may have slipped in between the two transactions: cancel it too, so its hold is released.
      const a = await findOwned(m, ref, true);
      const latest = await lockLatestJob(m, a);
      if (latest && !isTerminal(latest.status)) await cancelLockedJob(m, latest, a);
      // Published run and finished events of these jobs go too (unsent ones, e.g. the cancel above, are pruned once sent).
      const all = await m.find(JobEntity, { where: { artifactId: artifact.id, accountId: artifact.accountId }, select: { id: true } });
      await m.query(`DELETE FROM "artifact"."outbox" WHERE "id" = ANY($1) AND "sent_at" IS NOT NULL`, [
        all.flatMap((j) => [`run_${j.id}`, `fin_${j.id}`]),
      ]);
      await m.delete(JobResultEntity, { artifactId: artifact.id, accountId: artifact.accountId });
      // What its confirmed results taught about its layout goes with the document (ADR 0014).
      await m.delete(LayoutExemplarEntity, { artifactId: artifact.id, accountId: artifact.accountId });
      await m.delete(JobEntity, { artifactId: artifact.id, accountId: artifact.accountId });
      await m.delete(ArtifactEntity, { id: artifact.id, accountId: artifact.accountId });
    });
    this.log.info({ artifactId: artifact.id, accountId: artifact.accountId, jobs: jobs.length, objects: keys.size }, 'artifact deleted');
  }
}
