import { connect, headers, nanos, type NatsConnection } from '@nats-io/transport-node';
import {
  AckPolicy,
  DiscardPolicy,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { Streams } from '@docket/contracts';
import type { Logger } from 'pino';
import type { NatsAuth } from './nats-auth.js';
import { jetstreamMessages, scrapeGauge } from './metrics.js';
import { extractTraceContext, inSpan, injectTraceContext, SpanKind } from './tracing.js';
import { REQUEST_ID_HEADER, requestContext } from './request-context.js';

export type HandlerOutcome = { ack: true } | { retryInMs: number } | { term: string };

export interface ConsumeOptions<T> {
  stream: string;
  durable: string;
  filterSubject?: string;
  ackWaitMs: number;
  /** Deliveries before JetStream gives a message up; -1 = never (the handler decides when to stop, ADR 0008). */
  maxDeliver: number;
  /** How many messages this process works on at once. */
  concurrency?: number;
  handler: (data: T, ctx: { deliveryCount: number; working: () => void; subject: string; msgId?: string }) => Promise<HandlerOutcome>;
}

/** Stream limits (see `jetstreamEnv` in @docket/config). */
export interface StreamLimits {
  JETSTREAM_REPLICAS: number;
  JETSTREAM_JOBS_MAX_BYTES: number;
  JETSTREAM_JOBS_MAX_AGE_MS: number;
  JETSTREAM_EVENTS_MAX_BYTES: number;
  JETSTREAM_EVENTS_MAX_AGE_MS: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  JETSTREAM_REPLICAS: 1,
  JETSTREAM_JOBS_MAX_BYTES: 1024 ** 3,
  JETSTREAM_JOBS_MAX_AGE_MS: 7 * 24 * 3600 * 1000,
  JETSTREAM_EVENTS_MAX_BYTES: 1024 ** 3,
  JETSTREAM_EVENTS_MAX_AGE_MS: 7 * 24 * 3600 * 1000,
};

/** The buses consuming in this process; `docket_jetstream_consumer_lag` reads them when scraped. */
const consumerLag = new Set<JetStreamBus>();
scrapeGauge(
  'docket_jetstream_consumer_lag',
  'JetStream consumer lag: pending (not yet delivered) and ack_pending messages',
  ['stream', 'consumer', 'kind'],
  async () => (await Promise.all([...consumerLag].map((b) => b.lag()))).flat(),
);

/**
 * Durable work and events over JetStream. Core NATS alone is at-most-once; everything that must
 * not be lost (jobs, job-finished events) goes through here.
 */
export class JetStreamBus {
  private nc!: NatsConnection;
  private js!: JetStreamClient;
  private jsm!: JetStreamManager;
  private stopped = false;
  private readonly loops: Promise<void>[] = [];
  private readonly inflight = new Set<Promise<void>>();
  private readonly iterators = new Set<ConsumerMessages>();
  /** Messages whose handler is still running, naked at the end of a shutdown grace period. */
  private readonly held = new Set<JsMsg>();
  /** The durable consumers this bus consumes (their lag is a metric). */
  private readonly consumed: { stream: string; durable: string }[] = [];

  constructor(
    private readonly natsUrl: string,
    private readonly log: Logger,
    private readonly name: string,
    private readonly auth: NatsAuth = {},
    private readonly limits: StreamLimits = DEFAULT_STREAM_LIMITS,
  ) {}

  async connect(): Promise<void> {
    this.nc = await connect({ servers: [this.natsUrl], ...this.auth, name: `${this.name}-js`, maxReconnectAttempts: -1 });
    this.js = jetstream(this.nc);
    this.jsm = await jetstreamManager(this.nc);
    await this.ensureStreams();
  }

  /** Idempotent: creates the streams Docket uses, or updates existing ones to the configured limits. */
  async ensureStreams(): Promise<void> {
    const l = this.limits;
    await this.addStream(
      { name: Streams.jobs.name, subjects: [...Streams.jobs.subjects], retention: RetentionPolicy.Workqueue },
      { num_replicas: l.JETSTREAM_REPLICAS, max_bytes: l.JETSTREAM_JOBS_MAX_BYTES, max_age: nanos(l.JETSTREAM_JOBS_MAX_AGE_MS) },
    );
    await this.addStream(
      { name: Streams.events.name, subjects: [...Streams.events.subjects], retention: RetentionPolicy.Limits },
      { num_replicas: l.JETSTREAM_REPLICAS, max_bytes: l.JETSTREAM_EVENTS_MAX_BYTES, max_age: nanos(l.JETSTREAM_EVENTS_MAX_AGE_MS) },
    );
  }

  private async addStream(
    cfg: { name: string; subjects: string[]; retention: RetentionPolicy },
    limits: { num_replicas: number; max_bytes: number; max_age: number },
  ): Promise<void> {
    // A full stream refuses new messages (the outbox retries them) instead of dropping old ones: queued jobs, unsettled events.
    const wanted = { ...limits, subjects: cfg.subjects, discard: DiscardPolicy.New };
    let existing;
    try {
      existing = await this.jsm.streams.info(cfg.name);
    } catch {
      await this.jsm.streams.add({ ...cfg, ...wanted, storage: StorageType.File, duplicate_window: nanos(2 * 60 * 1000) });
      return;
    }
    const c = existing.config;
    const same =
      c.num_replicas === wanted.num_replicas &&
      c.max_bytes === wanted.max_bytes &&
      c.max_age === wanted.max_age &&
      c.discard === wanted.discard;
    if (same) return;
    await this.jsm.streams.update(cfg.name, { ...c, ...wanted });
    this.log.info(
      { stream: cfg.name, from: { replicas: c.num_replicas, max_bytes: c.max_bytes, max_age: c.max_age }, to: limits },
      'stream updated to the configured limits',
    );
  }

  /**
   * Publishes with the request id and trace context as headers: `stored` ones (an outbox row, written while the
   * request ran) or else those of the active context.
   */
  async publish(subject: string, payload: unknown, msgId: string, stored?: Record<string, string> | null): Promise<void> {
    const h = headers();
    if (stored) for (const [k, v] of Object.entries(stored)) h.set(k, v);
    else {
      const requestId = requestContext.getStore()?.requestId;
      if (requestId) h.set(REQUEST_ID_HEADER, requestId);
      injectTraceContext((k, v) => h.set(k, v));
    }
    await this.js.publish(subject, JSON.stringify(payload), { msgID: msgId, ...(h.keys().length ? { headers: h } : {}) });
  }

  async ensureConsumer(
    opts: Pick<ConsumeOptions<unknown>, 'stream' | 'durable' | 'filterSubject' | 'ackWaitMs' | 'maxDeliver'>,
  ): Promise<void> {
    const cfg = {
      durable_name: opts.durable,
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(opts.ackWaitMs),
      max_deliver: opts.maxDeliver,
      ...(opts.filterSubject ? { filter_subject: opts.filterSubject } : {}),
    };
    try {
      await this.jsm.consumers.info(opts.stream, opts.durable);
      await this.jsm.consumers.update(opts.stream, opts.durable, { ack_wait: cfg.ack_wait, max_deliver: cfg.max_deliver });
    } catch {
      await this.jsm.consumers.add(opts.stream, cfg);
    }
  }

  /**
   * Pull-consume a durable consumer until `close()`. Handler outcomes map to ack / delayed nak / term.
   *
   * Uses the library's long-running `consume()` rather than repeated `fetch()` calls: one inbox for the
   * consumer's life, so a message the server sends as a pull request expires (a delayed redelivery landing
   * on the boundary) is still received instead of going to a closed inbox and silently using up one of
   * its `max_deliver` attempts. The iterator pulls the next batch only when asked, so waiting for a free
   * slot before asking keeps at most `concurrency` messages in hand (no prefetch ticking their ack wait).
   */
  async consume<T>(opts: ConsumeOptions<T>): Promise<void> {
    await this.ensureConsumer(opts);
    const consumer = await this.js.consumers.get(opts.stream, opts.durable);
    this.consumed.push({ stream: opts.stream, durable: opts.durable });
    consumerLag.add(this);
    const concurrency = opts.concurrency ?? 1;
    const mine = new Set<Promise<void>>(); // this consumer's handlers in progress (the slots)
    const loop = (async () => {
      while (!this.stopped) {
        try {
          const messages = await consumer.consume({ max_messages: concurrency, expires: 30_000 });
          this.iterators.add(messages);
          try {
            for await (const m of messages) {
              const p = this.track(this.handle(m, opts));
              mine.add(p);
              void p.finally(() => mine.delete(p));
              while (mine.size >= concurrency && !this.stopped) await Promise.race(mine);
              if (this.stopped) break;
            }
          } finally {
            this.iterators.delete(messages);
          }
        } catch (err) {
          if (this.stopped) break;
          this.log.warn({ err, stream: opts.stream, durable: opts.durable }, 'consume loop error; retrying');
          await new Promise((r) => setTimeout(r, 1000));
        }
      }
    })();
    this.loops.push(loop);
  }

  private track(p: Promise<void>): Promise<void> {
    this.inflight.add(p);
    return p.finally(() => this.inflight.delete(p));
  }

  private async handle<T>(m: JsMsg, opts: ConsumeOptions<T>): Promise<void> {
    let data: T;
    try {
      data = m.json<T>();
    } catch {
      this.log.error({ subject: m.subject }, 'undecodable message terminated');
      m.term('undecodable');
      return;
    }
    this.held.add(m);
    // The work's log lines carry the request that queued it (else the message id, e.g. the job id).
    const requestId = m.headers?.get(REQUEST_ID_HEADER) || m.headers?.get('Nats-Msg-Id') || `${m.info.stream}:${m.seq}`;
    const parent = extractTraceContext((k) => m.headers?.get(k) || undefined);
    const attributes = {
      'messaging.system': 'nats',
      'messaging.destination.name': m.subject,
      'messaging.consumer.group.name': opts.durable,
    };
    await requestContext.run({ requestId }, () =>
      inSpan(this.name, `JetStream ${m.subject}`, SpanKind.CONSUMER, attributes, () => this.settle(m, data, opts), parent),
    );
  }

  private async settle<T>(m: JsMsg, data: T, opts: ConsumeOptions<T>): Promise<void> {
    try {
      const outcome = await opts.handler(data, {
        deliveryCount: m.info.deliveryCount,
        working: () => m.working(),
        subject: m.subject,
        msgId: m.headers?.get('Nats-Msg-Id') || undefined,
      });
      if ('ack' in outcome) m.ack();
      else if ('retryInMs' in outcome) m.nak(outcome.retryInMs);
      else m.term(outcome.term);
      const result = 'ack' in outcome ? 'ack' : 'retryInMs' in outcome ? 'retry' : 'term';
      jetstreamMessages.inc({ stream: opts.stream, consumer: opts.durable, outcome: result });
    } catch (err) {
      jetstreamMessages.inc({ stream: opts.stream, consumer: opts.durable, outcome: 'error' });
      this.log.error({ err, subject: m.subject, delivery: m.info.deliveryCount }, 'handler failed; will be redelivered');
      m.nak(Math.min(30_000, 500 * 2 ** m.info.deliveryCount));
    } finally {
      this.held.delete(m);
    }
  }

  /** Messages not yet delivered (`pending`) and delivered but not acked (`ack_pending`) per consumer of this process. */
  async lag(): Promise<{ labels: Record<string, string>; value: number }[]> {
    if (this.stopped || !this.jsm) return [];
    const out: { labels: Record<string, string>; value: number }[] = [];
    for (const c of this.consumed) {
      const info = await this.jsm.consumers.info(c.stream, c.durable);
      out.push({ labels: { stream: c.stream, consumer: c.durable, kind: 'pending' }, value: info.num_pending });
      out.push({ labels: { stream: c.stream, consumer: c.durable, kind: 'ack_pending' }, value: info.num_ack_pending });
    }
    return out;
  }

  /** A round trip to the NATS server (readiness): throws while the connection is down or reconnecting. */
  async ping(): Promise<void> {
    if (!this.nc || this.nc.isClosed()) throw new Error('NATS connection closed');
    await this.nc.flush();
  }

  get connection(): NatsConnection {
    return this.nc;
  }

  /**
   * Stops pulling, lets the handlers in progress finish, then closes. With `graceMs`, handlers still running
   * after it have their message naked (redelivered at once to another consumer) before the connection drains.
   */
  async close(graceMs?: number): Promise<void> {
    this.stopped = true;
    consumerLag.delete(this);
    for (const it of this.iterators) it.stop();
    const finished = Promise.allSettled([...this.loops, ...this.inflight]);
    if (graceMs === undefined) await finished;
    else {
      let timer: NodeJS.Timeout | undefined;
      const expired = await Promise.race([
        finished.then(() => false),
        new Promise<boolean>((r) => (timer = setTimeout(() => r(true), graceMs))),
      ]);
      clearTimeout(timer);
      if (expired) {
        this.log.warn({ inFlight: this.held.size, graceMs }, 'shutdown grace period over; naking messages still in progress');
        for (const m of this.held) m.nak();
        this.held.clear();
      }
    }
    if (this.nc && !this.nc.isClosed()) await this.nc.drain().catch(() => undefined);
  }
}
