import { DocketError } from '@docket/errors';
import type { EntityManager } from 'typeorm';
import { ArtifactEntity } from '../entities/artifact.entity.js';

export interface OwnedRef {
  accountId: string;
  artifactId: string;
}

/**
 * The artifact, if it belongs to the caller: unknown → 404 `artifact_not_found`, another account's →
 * 403 `forbidden` (spec §7: only confirm-upload answers 404 for a foreign artifact). `lock` takes a
 * row lock for the rest of the transaction, so state changes on one artifact are serialised.
 */
export async function findOwned(m: EntityManager, ref: OwnedRef, lock = false): Promise<ArtifactEntity> {
  const qb = m.getRepository(ArtifactEntity).createQueryBuilder('a').where('a.id = :id', { id: ref.artifactId });
  if (lock) qb.setLock('pessimistic_write');
  const artifact = await qb.getOne();
  if (!artifact) throw new DocketError('artifact_not_found', 'Artifact not found');
  if (artifact.accountId !== ref.accountId) throw new DocketError('forbidden', 'This artifact belongs to another account');
  return artifact;
}
