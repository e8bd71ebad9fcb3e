import { Controller, Module } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CoverHoldCommand,
  PlaceBatchHoldCommand,
  PlaceHoldCommand,
  ReleaseHoldCommand,
  Subjects,
  type PlaceBatchHoldReply,
  type PlaceHoldReply,
  type ReleaseHoldReply,
} from '@docket/contracts';
import { DocketError } from '@docket/errors';

/** What the stand-in `billing` saw, and which accounts it refuses. Reset per test file by making a new one. */
export interface BillingRecord {
  holds: PlaceHoldCommand[];
  batchHolds: PlaceBatchHoldCommand[];
  releases: ReleaseHoldCommand[];
  covers: CoverHoldCommand[];
  /** Accounts whose holds are refused (402). */
  broke: Set<string>;
}

/**
 * Stand-in `billing` for artifact's integration tests: a real NATS responder (started with
 * `startServiceApp`) using the real contract classes, holding 5 credits per job and recording calls.
 */
export function billingStandIn(): { module: new () => unknown; record: BillingRecord } {
  const record: BillingRecord = { holds: [], batchHolds: [], releases: [], covers: [], broke: new Set() };

  @Controller()
  class BillingStandIn {
    @MessagePattern(Subjects.billing.placeHold)
    place(@Payload() cmd: PlaceHoldCommand): PlaceHoldReply {
      if (record.broke.has(cmd.accountId)) throw new DocketError('insufficient_funds', 'Spendable balance is too low');
      record.holds.push(cmd);
      return { jobId: cmd.jobId, amount: 5 };
    }

    @MessagePattern(Subjects.billing.placeBatchHold)
    placeBatch(@Payload() cmd: PlaceBatchHoldCommand): PlaceBatchHoldReply {
      if (record.broke.has(cmd.accountId)) throw new DocketError('wallet_frozen', 'Wallet is frozen');
      record.batchHolds.push(cmd);
      return { holds: cmd.items.map((i) => ({ jobId: i.jobId, amount: 5 })), total: 5 * cmd.items.length };
    }

    @MessagePattern(Subjects.billing.coverHold)
    cover(@Payload() cmd: CoverHoldCommand): PlaceHoldReply {
      if (record.broke.has(cmd.accountId)) throw new DocketError('insufficient_funds', 'Spendable balance is too low');
      record.covers.push(cmd);
      return { jobId: cmd.jobId, amount: 5 };
    }

    @MessagePattern(Subjects.billing.releaseHold)
    release(@Payload() cmd: ReleaseHoldCommand): ReleaseHoldReply {
      record.releases.push(cmd);
      return { jobId: cmd.jobId, status: 'released', amount: 5 };
    }
  }

  @Module({ controllers: [BillingStandIn] })
  class BillingStandInModule {}

  return { module: BillingStandInModule, record };
}
