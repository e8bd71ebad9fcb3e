import { toCredits, type WalletStatusResponseDto } from '@docket/contracts';
import type { WalletEntity } from '../entities/index.js';

/** Spec §2.6: balance = deposits − settled charges; spendable = balance − active holds. */
export function walletStatus(w: WalletEntity): WalletStatusResponseDto {
  return {
    balance: toCredits(w.balanceMicro),
    spendable: toCredits(w.balanceMicro - w.heldMicro),
    is_frozen: w.isFrozen,
    frozen_reason: w.isFrozen ? w.frozenReason : null,
  };
}
