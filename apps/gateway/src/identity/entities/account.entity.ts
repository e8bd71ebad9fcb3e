import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ schema: 'identity', name: 'accounts' })
export class AccountEntity {
  /** `acct_` + lowercase ulid. */
  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'accounts_pkey' })
  id: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
