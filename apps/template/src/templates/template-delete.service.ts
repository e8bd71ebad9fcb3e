import { Inject, Injectable } from '@nestjs/common';
import type { DeleteTemplateCommand, DeleteTemplateReply } from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { DataSource } from 'typeorm';
import { TemplateVersionEntity } from '../entities/template-version.entity.js';
import { TemplateEntity } from '../entities/template.entity.js';
import { TEMPLATE_USAGE } from '../tokens.js';
import type { TemplateUsage } from './template-usage.client.js';
import { TemplateStore } from './template.store.js';

/**
 * Soft delete (default) hides the template from every read and from new jobs; the rows stay.
 * Hard delete removes the template and all its version rows, only after `artifact` confirms no
 * in-flight job uses it (409 `template_in_use`; 503 when artifact does not answer).
 */
@Injectable()
export class TemplateDeleteService {
  constructor(
    private readonly ds: DataSource,
    private readonly store: TemplateStore,
    @Inject(TEMPLATE_USAGE) private readonly usage: TemplateUsage,
  ) {}

  async delete(cmd: DeleteTemplateCommand): Promise<DeleteTemplateReply> {
    const hard = cmd.query?.hard_delete ?? false;
    const t = await this.store.findOwned(cmd.accountId, cmd.templateId);
    if (!hard) {
      const now = new Date();
      await this.ds.getRepository(TemplateEntity).update({ id: t.id, accountId: cmd.accountId }, { deletedAt: now, updatedAt: now });
      return { id: t.id, deleted: true, hard_delete: false };
    }
    if (await this.usage.isInUse(cmd.accountId, t.id)) {
      throw new DocketError('template_in_use', `Template ${t.id} is used by an in-flight job`);
    }
    await this.ds.transaction(async (m) => {
      await m.getRepository(TemplateVersionEntity).delete({ templateId: t.id, accountId: cmd.accountId });
      await m.getRepository(TemplateEntity).delete({ id: t.id, accountId: cmd.accountId });
    });
    return { id: t.id, deleted: true, hard_delete: true };
  }
}
