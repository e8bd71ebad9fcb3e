import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { PlaceBatchHoldCommand, PlaceHoldCommand, ReleaseHoldCommand, Subjects } from '@docket/contracts';
import { PlaceHoldService } from './place-hold.service.js';
import { ReleaseHoldService } from './release-hold.service.js';

@Controller()
export class HoldsHandler {
  constructor(private readonly placeHold: PlaceHoldService, private readonly releaseHold: ReleaseHoldService) {}

  @MessagePattern(Subjects.billing.placeHold)
  place(@Payload() cmd: PlaceHoldCommand) {
    return this.placeHold.place(cmd);
  }

  @MessagePattern(Subjects.billing.placeBatchHold)
  placeBatch(@Payload() cmd: PlaceBatchHoldCommand) {
    return this.placeHold.placeBatch(cmd);
  }

  @MessagePattern(Subjects.billing.releaseHold)
  release(@Payload() cmd: ReleaseHoldCommand) {
    return this.releaseHold.release(cmd);
  }
}
