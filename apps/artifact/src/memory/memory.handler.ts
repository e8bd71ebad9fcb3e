import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ExemplarListQuery, ExemplarRef, MemoryJobCommand, MemorySettingsCommand, SaveExemplarCommand, Subjects } from '@docket/contracts';
import { MemoryService } from './memory.service.js';

@Controller()
export class MemoryHandler {
  constructor(private readonly memory: MemoryService) {}

  @MessagePattern(Subjects.artifact.listExemplars)
  list(@Payload() q: ExemplarListQuery) {
    return this.memory.list(q);
  }

  @MessagePattern(Subjects.artifact.deleteExemplar)
  async delete(@Payload() ref: ExemplarRef) {
    await this.memory.delete(ref);
    return { deleted: true };
  }

  @MessagePattern(Subjects.artifact.getMemorySettings)
  getSettings(@Payload() cmd: MemorySettingsCommand) {
    return this.memory.settings({ accountId: cmd.accountId });
  }

  @MessagePattern(Subjects.artifact.setMemorySettings)
  setSettings(@Payload() cmd: MemorySettingsCommand) {
    return this.memory.settings(cmd);
  }

  @MessagePattern(Subjects.artifact.jobExemplars)
  forJob(@Payload() cmd: MemoryJobCommand) {
    return this.memory.forJob(cmd);
  }

  @MessagePattern(Subjects.artifact.learnSource)
  learnSource(@Payload() cmd: MemoryJobCommand) {
    return this.memory.learnSource(cmd);
  }

  @MessagePattern(Subjects.artifact.saveExemplar)
  save(@Payload() cmd: SaveExemplarCommand) {
    return this.memory.save(cmd);
  }
}
