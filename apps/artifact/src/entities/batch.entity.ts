import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One `POST /batch` (or request-batch-upload): groups its jobs (`jobs.batch_id`). */
@Entity({ schema: 'artifact', name: 'batches' })
@Index('batches_account_created_idx', ['accountId', 'createdAt'])
export class BatchEntity {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id: string;
  @Column({ name: 'account_id', type: 'varchar', length: 40 }) accountId: string;
  @Column({ type: 'integer' }) total: number;
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt: Date;
  @Column({ name: 'upload_expires_at', type: 'timestamptz' }) uploadExpiresAt: Date;
}
