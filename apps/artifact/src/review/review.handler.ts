import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ApproveJobCommand, CorrectJobCommand, JobRef, ReviewListQuery, Subjects } from '@docket/contracts';
import { ReviewService } from './review.service.js';

@Controller()
export class ReviewHandler {
  constructor(private readonly review: ReviewService) {}

  @MessagePattern(Subjects.artifact.reviewList)
  list(@Payload() q: ReviewListQuery) {
    return this.review.list(q);
  }

  @MessagePattern(Subjects.artifact.correctJob)
  correct(@Payload() cmd: CorrectJobCommand) {
    return this.review.correct(cmd);
  }

  @MessagePattern(Subjects.artifact.approveJob)
  approve(@Payload() cmd: ApproveJobCommand) {
    return this.review.approve(cmd);
  }

  @MessagePattern(Subjects.artifact.jobResults)
  results(@Payload() ref: JobRef) {
    return this.review.results(ref);
  }
}
