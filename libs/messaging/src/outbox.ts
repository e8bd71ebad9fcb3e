import type { DataSource, EntityManager } from 'typeorm';
import { ulid } from 'ulid';
import type { Logger } from 'pino';
import type { JetStreamBus } from './jetstream.js';
import { REQUEST_ID_HEADER, requestContext } from './request-context.js';
import { traceHeaders } from './tracing.js';

/**
 * Transactional outbox: the event row is written in the same transaction as the state change,
 * and a relay publishes it with Nats-Msg-Id = outbox id (JetStream drops duplicates), then marks it
 * sent. "Commit, then dispatch" (spec §4.2) without a bare publish after commit. Sent rows are pruned
 * once they are older than the relay's `keepSentMs` (ADR 0008: nothing tenant-related stays behind).
 */
export function outboxTableSql(schema: string): string[] {
  return [
    `CREATE TABLE "${schema}"."outbox" (
      "id" varchar(40) PRIMARY KEY,
      "subject" varchar(200) NOT NULL,
      "payload" jsonb NOT NULL,
      "headers" jsonb,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "sent_at" timestamptz
    )`,
    `CREATE INDEX "outbox_unsent_idx" ON "${schema}"."outbox" ("id") WHERE "sent_at" IS NULL`,
  ];
}

export async function enqueueOutbox(
  manager: EntityManager,
  schema: string,
  subject: string,
  payload: object,
  id = `evt_${ulid().toLowerCase()}`,
): Promise<string> {
  // The request id and trace context of the request that wrote the row travel with the message it becomes.
  const requestId = requestContext.getStore()?.requestId;
  const headers = { ...traceHeaders(), ...(requestId ? { [REQUEST_ID_HEADER]: requestId } : {}) };
  await manager.query(`INSERT INTO "${schema}"."outbox" ("id", "subject", "payload", "headers") VALUES ($1, $2, $3, $4)`, [
    id,
    subject,
    JSON.stringify({ ...payload }),
    Object.keys(headers).length ? JSON.stringify(headers) : null,
  ]);
  return id;
}

/** How long a published outbox row is kept (JetStream's duplicate window is 2 minutes). */
export const DEFAULT_KEEP_SENT_MS = 10 * 60_000;
/** How often sent rows are pruned. */
const PRUNE_EVERY_MS = 60_000;

export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly ds: DataSource,
    private readonly schema: string,
    private readonly bus: JetStreamBus,
    private readonly log: Logger,
    private readonly intervalMs = 100,
    /** Sent rows older than this are deleted (they only served duplicate detection within JetStream's window). */
    private readonly keepSentMs = DEFAULT_KEEP_SENT_MS,
  ) {}

  private lastPrune = 0;

  start(): void {
    const tick = async () => {
      if (this.stopped) return;
      this.running = this.drain()
        .then(() => this.pruneNow())
        .then(
          () => undefined,
          (err) => this.log.warn({ err }, 'outbox relay pass failed'),
        );
      await this.running;
      if (!this.stopped) this.timer = setTimeout(tick, this.intervalMs);
    };
    this.timer = setTimeout(tick, 0);
  }

  /** Publishes every unsent row; rows are locked so several replicas never double-handle one. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const sent = await this.ds.transaction(async (m) => {
        const rows: { id: string; subject: string; payload: object; headers: Record<string, string> | null }[] = await m.query(
          `SELECT "id", "subject", "payload", "headers" FROM "${this.schema}"."outbox" WHERE "sent_at" IS NULL ORDER BY "id" LIMIT 100 FOR UPDATE SKIP LOCKED`,
        );
        for (const r of rows) await this.bus.publish(r.subject, r.payload, r.id, r.headers);
        if (rows.length)
          await m.query(`UPDATE "${this.schema}"."outbox" SET "sent_at" = now() WHERE "id" = ANY($1)`, [rows.map((r) => r.id)]);
        return rows.length;
      });
      total += sent;
      if (sent < 100) return total;
    }
  }

  /** Deletes published rows older than `keepSentMs`, at most once a minute. */
  private async pruneNow(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    await this.prune();
  }

  async prune(): Promise<number> {
    const [, count] = (await this.ds.query(
      `DELETE FROM "${this.schema}"."outbox" WHERE "sent_at" IS NOT NULL AND "sent_at" < now() - make_interval(secs => $1)`,
      [this.keepSentMs / 1000],
    )) as [unknown, number];
    if (count) this.log.info({ pruned: count, schema: this.schema }, 'outbox: published rows pruned');
    return count ?? 0;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
