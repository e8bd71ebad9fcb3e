import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An account's layout memory setting (ADR 0014); no row: on, the default. */
@Entity({ schema: 'artifact', name: 'account_memory' })
export class AccountMemoryEntity {
  @PrimaryColumn({ name: 'account_id', type: 'varchar', length: 40 }) accountId: string;
  @Column({ type: 'boolean' }) enabled: boolean;
  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' }) updatedAt: Date;
}
