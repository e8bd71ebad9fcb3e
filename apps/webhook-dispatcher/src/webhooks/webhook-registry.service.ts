import { Injectable } from '@nestjs/common';
import { DataSource, IsNull, type Repository } from 'typeorm';
import { ulid } from 'ulid';
import {
  WEBHOOK_EVENT_TYPES,
  type CreateWebhookCommand,
  type DeleteWebhookReply,
  type ListWebhooksQuery,
  type RegisterOneShotCommand,
  type RegisterOneShotReply,
  type RotateSecretResponseDto,
  type UpdateWebhookCommand,
  type WebhookCreateResponseDto,
  type WebhookEventType,
  type WebhookRef,
  type WebhookResponseDto,
} from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { WebhookEntity } from '../entities/webhook.entity.js';
import { generateSigningSecret, SecretCipher } from '../security/secret-cipher.js';
import { UrlPolicy } from '../security/url-policy.js';
import { toWebhookResponse } from './webhook.mapper.js';

/** Rotation keeps the previous secret valid this long (spec §8). */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

/** Webhook lifecycle: create, one-shot registration, lookup, update, soft delete, secret rotation. */
@Injectable()
export class WebhookRegistryService {
  private readonly repo: Repository<WebhookEntity>;

  constructor(
    ds: DataSource,
    private readonly cipher: SecretCipher,
    private readonly urls: UrlPolicy,
  ) {
    this.repo = ds.getRepository(WebhookEntity);
  }

  async create(cmd: CreateWebhookCommand): Promise<WebhookCreateResponseDto> {
    const { body } = cmd;
    if (!body.events?.length) throw new DocketError('validation_failed', 'events must not be empty');
    const url = await this.urls.validate(body.url);
    const { entity, secret } = this.newWebhook(cmd.accountId, url, body.events, body.description ?? '', false);
    await this.repo.insert(entity);
    return { ...toWebhookResponse(entity), secret_key: secret };
  }

  async registerOneShot(cmd: RegisterOneShotCommand): Promise<RegisterOneShotReply> {
    const url = await this.urls.validate(cmd.url);
    const { entity, secret } = this.newWebhook(cmd.accountId, url, [...WEBHOOK_EVENT_TYPES], '', true);
    await this.repo.insert(entity);
    return { webhookId: entity.id, secret };
  }

  /**
   * Used by `artifact` at submit time: the account owns an addressable (not deleted, not one-shot) webhook.
   * An inactive one is accepted (spec §3.4, §6.6: deactivation stops deliveries, jobs are still accepted);
   * the dispatcher checks `is_active` when a job finishes, so nothing is delivered while it stays inactive.
   */
  async verify(ref: WebhookRef): Promise<{ id: string }> {
    const w = await this.repo.findOneBy({ id: ref.webhookId, accountId: ref.accountId, deletedAt: IsNull(), isOneShot: false });
    if (!w) throw new DocketError('webhook_not_found', 'Webhook not found');
    return { id: w.id };
  }

  async list(q: ListWebhooksQuery): Promise<WebhookResponseDto[]> {
    const rows = await this.repo.find({
      where: { accountId: q.accountId, deletedAt: IsNull(), isOneShot: false },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return rows.map(toWebhookResponse);
  }

  async update(cmd: UpdateWebhookCommand): Promise<WebhookResponseDto> {
    const w = await this.findOwned(cmd);
    const { body } = cmd;
    if (body.events !== undefined && !body.events.length) throw new DocketError('validation_failed', 'events must not be empty');
    if (body.url !== undefined && body.url !== w.url) w.url = await this.urls.validate(body.url);
    if (body.description !== undefined) w.description = body.description;
    if (body.is_active !== undefined) w.isActive = body.is_active;
    if (body.events !== undefined) w.events = body.events;
    w.updatedAt = new Date();
    await this.repo.update(
      { id: w.id, accountId: w.accountId },
      { url: w.url, description: w.description, isActive: w.isActive, events: w.events, updatedAt: w.updatedAt },
    );
    return toWebhookResponse(w);
  }

  /**
   * Soft delete: the row stays so the delivery history stays readable, but it is never delivered to
   * again; queued retries see `deleted_at` and are abandoned.
   */
  async delete(ref: WebhookRef): Promise<DeleteWebhookReply> {
    const w = await this.findOwned(ref);
    const now = new Date();
    await this.repo.update({ id: w.id, accountId: w.accountId }, { deletedAt: now, isActive: false, updatedAt: now });
    return { id: w.id, deleted: true };
  }

  async rotateSecret(ref: WebhookRef): Promise<RotateSecretResponseDto> {
    const w = await this.findOwned(ref);
    const secret = generateSigningSecret();
    const now = new Date();
    await this.repo.update(
      { id: w.id, accountId: w.accountId },
      {
        secretCiphertext: this.cipher.encrypt(secret, w.id),
        previousSecretCiphertext: w.secretCiphertext,
        previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS),
        updatedAt: now,
      },
    );
    return { id: w.id, secret_key: secret, url: w.url, events: w.events as WebhookEventType[] };
  }

  /** 404 when missing, deleted or one-shot; 403 when it belongs to another account. */
  async findOwned(ref: WebhookRef): Promise<WebhookEntity> {
    const w = await this.repo.findOneBy({ id: ref.webhookId, deletedAt: IsNull(), isOneShot: false });
    if (!w) throw new DocketError('webhook_not_found', 'Webhook not found');
    if (w.accountId !== ref.accountId) throw new DocketError('forbidden', 'Webhook belongs to another account');
    return w;
  }

  private newWebhook(accountId: string, url: string, events: string[], description: string, isOneShot: boolean) {
    const id = `wh_${ulid().toLowerCase()}`;
    const secret = generateSigningSecret();
    const now = new Date();
    const entity = Object.assign(new WebhookEntity(), {
      id,
      accountId,
      url,
      description,
      events,
      isActive: true,
      isOneShot,
      secretCiphertext: this.cipher.encrypt(secret, id),
      previousSecretCiphertext: null,
      previousSecretExpiresAt: null,
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    return { entity, secret };
  }
}
