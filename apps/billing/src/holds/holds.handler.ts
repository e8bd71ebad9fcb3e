import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CoverHoldCommand,
  PlaceBatchHoldCommand,
  PlaceHoldCommand,
  ReleaseHoldCommand,
  ResizeHoldCommand,
  Subjects,
} from '@docket/contracts';
import { CoverHoldService } from './cover-hold.service.js';
import { PlaceHoldService } from './place-hold.service.js';
import { ReleaseHoldService } from './release-hold.service.js';
import { ResizeHoldService } from './resize-hold.service.js';

@Controller()
export class HoldsHandler {
  constructor(
    private readonly placeHold: PlaceHoldService,
    private readonly releaseHold: ReleaseHoldService,
    private readonly coverHold: CoverHoldService,
    private readonly resizeHold: ResizeHoldService,
  ) {}

  @MessagePattern(Subjects.billing.placeHold)
  place(@Payload() cmd: PlaceHoldCommand) {
    return this.placeHold.place(cmd);
  }

  @MessagePattern(Subjects.billing.placeBatchHold)
  placeBatch(@Payload() cmd: PlaceBatchHoldCommand) {
    return this.placeHold.placeBatch(cmd);
  }

  @MessagePattern(Subjects.billing.coverHold)
  cover(@Payload() cmd: CoverHoldCommand) {
    return this.coverHold.cover(cmd);
  }

  @MessagePattern(Subjects.billing.resizeHold)
  resize(@Payload() cmd: ResizeHoldCommand) {
    return this.resizeHold.resize(cmd);
  }

  @MessagePattern(Subjects.billing.releaseHold)
  release(@Payload() cmd: ReleaseHoldCommand) {
    return this.releaseHold.release(cmd);
  }
}
