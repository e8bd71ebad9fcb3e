import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AccountScoped,
  CloneTemplateCommand,
  CreateTemplateCommand,
  DeleteTemplateCommand,
  ListTemplatesCommand,
  PatchTemplateSchemaCommand,
  Subjects,
  TemplateRef,
  TemplateSnapshotQuery,
  UpdateTemplateCommand,
} from '@docket/contracts';
import { TemplateCommandService } from './template-command.service.js';
import { TemplateDeleteService } from './template-delete.service.js';
import { TemplateQueryService } from './template-query.service.js';

/** NATS adapter: validated payload in, one service call, plain JSON out. */
@Controller()
export class TemplateHandler {
  constructor(
    private readonly commands: TemplateCommandService,
    private readonly queries: TemplateQueryService,
    private readonly deletes: TemplateDeleteService,
  ) {}

  @MessagePattern(Subjects.template.create)
  create(@Payload() cmd: CreateTemplateCommand) {
    return this.commands.create(cmd);
  }

  @MessagePattern(Subjects.template.get)
  get(@Payload() ref: TemplateRef) {
    return this.queries.get(ref);
  }

  @MessagePattern(Subjects.template.snapshot)
  snapshot(@Payload() q: TemplateSnapshotQuery) {
    return this.queries.snapshot(q);
  }

  @MessagePattern(Subjects.template.list)
  list(@Payload() cmd: ListTemplatesCommand) {
    return this.queries.list(cmd);
  }

  @MessagePattern(Subjects.template.categories)
  categories(@Payload() _q: AccountScoped) {
    return this.queries.categories();
  }

  @MessagePattern(Subjects.template.update)
  update(@Payload() cmd: UpdateTemplateCommand) {
    return this.commands.update(cmd);
  }

  @MessagePattern(Subjects.template.delete)
  delete(@Payload() cmd: DeleteTemplateCommand) {
    return this.deletes.delete(cmd);
  }

  @MessagePattern(Subjects.template.patchSchema)
  patchSchema(@Payload() cmd: PatchTemplateSchemaCommand) {
    return this.commands.patchSchema(cmd);
  }

  @MessagePattern(Subjects.template.clone)
  clone(@Payload() cmd: CloneTemplateCommand) {
    return this.commands.clone(cmd);
  }
}
