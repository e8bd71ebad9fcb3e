import { HoldEntity } from './hold.entity.js';
import { LedgerEntryEntity } from './ledger-entry.entity.js';
import { WalletEntity } from './wallet.entity.js';

export { HoldEntity, LedgerEntryEntity, WalletEntity };
export const billingEntities = [WalletEntity, HoldEntity, LedgerEntryEntity];
