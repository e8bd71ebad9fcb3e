import { Streams, Subjects, type ServiceName } from './subjects.js';

/**
 * Who may say what on NATS: the one source of truth for the per-service users in the nats-server
 * `authorization` block (ADR 0009-nats-and-postgres-least-privilege). Derived from `Subjects` and
 * `Streams` only: a new subject is usable by a service once it is listed here, and by nobody else.
 *
 * - `serves`: subjects the service answers (its queue-group subscriptions, plus its health ping).
 * - `calls`: subjects it sends requests to (each request reply arrives on the caller's `_INBOX`).
 * - `publishes`: JetStream subjects it publishes to (outbox relay).
 * - `consumes`: the durable pull consumers it owns.
 *
 * Replies to requests a service received go out through `allow_responses` (only to the reply subject of
 * a message it was delivered), so nobody needs a blanket publish right on `_INBOX.>`. Replies to a user's own
 * requests (and its JetStream API replies and pull deliveries) arrive on its own inbox prefix
 * (`natsInboxPrefix`), the only inboxes it may subscribe to: no user can read another user's replies.
 */
export type NatsUserName = ServiceName | 'admin';

export interface NatsUserGrants {
  serves: readonly string[];
  calls: readonly string[];
  publishes: readonly string[];
  consumes: readonly { stream: string; durable: string }[];
}

const all = (group: Record<string, string>) => Object.values(group);
const ping = (s: ServiceName) => Subjects.health.ping(s);
const SERVICES: readonly ServiceName[] = ['gateway', 'artifact', 'template', 'billing', 'extraction-worker', 'webhook-dispatcher'];

/** Billing's operator-only subjects: the admin CLI may call them, the public gateway may not. */
export const OPERATOR_BILLING_SUBJECTS: readonly string[] = [
  Subjects.billing.openWallet,
  Subjects.billing.deposit,
  Subjects.billing.freeze,
  Subjects.billing.unfreeze,
];

/** Artifact subjects that only other services call (the worker, template, billing): never the public gateway. */
const NOT_FOR_GATEWAY = new Set<string>([
  Subjects.artifact.jobStarted,
  Subjects.artifact.jobOutcome,
  Subjects.artifact.jobStorage,
  Subjects.artifact.jobPages,
  Subjects.artifact.templateInUse,
  Subjects.artifact.jobSettlement,
  Subjects.artifact.jobExemplars,
  Subjects.artifact.learnSource,
  Subjects.artifact.saveExemplar,
]);

export const servicePermissions: Record<NatsUserName, NatsUserGrants> = {
  gateway: {
    serves: [ping('gateway')],
    calls: [
      ...all(Subjects.artifact).filter((s) => !NOT_FOR_GATEWAY.has(s)),
      ...all(Subjects.template).filter((s) => s !== Subjects.template.snapshot),
      Subjects.billing.getWallet,
      Subjects.billing.usage,
      ...all(Subjects.webhook).filter((s) => s !== Subjects.webhook.registerOneShot && s !== Subjects.webhook.verify),
      ...SERVICES.map(ping),
    ],
    publishes: [],
    consumes: [],
  },
  artifact: {
    serves: [...all(Subjects.artifact), ping('artifact')],
    calls: [
      Subjects.template.snapshot,
      Subjects.billing.placeHold,
      Subjects.billing.placeBatchHold,
      Subjects.billing.coverHold,
      Subjects.billing.resizeHold,
      Subjects.billing.releaseHold,
      Subjects.webhook.registerOneShot,
      Subjects.webhook.verify,
    ],
    publishes: [Streams.jobs.run, Streams.jobs.learn, Streams.events.jobFinished, Streams.events.jobCorrected],
    consumes: [],
  },
  template: {
    serves: [...all(Subjects.template), ping('template')],
    calls: [Subjects.artifact.templateInUse],
    publishes: [],
    consumes: [],
  },
  billing: {
    serves: [...all(Subjects.billing), ping('billing')],
    // The hold reconciliation sweep asks for the settlement of a held job (ADR 0008).
    calls: [Subjects.artifact.jobSettlement],
    publishes: [],
    consumes: [{ stream: Streams.events.name, durable: Streams.events.durables.billing }],
  },
  'extraction-worker': {
    serves: [ping('extraction-worker')],
    // The page count goes to artifact (the job's owner), which asks billing: the worker has no billing rights.
    calls: [
      Subjects.artifact.jobStorage,
      Subjects.artifact.jobStarted,
      Subjects.artifact.jobPages,
      Subjects.artifact.jobOutcome,
      Subjects.artifact.jobExemplars,
      Subjects.artifact.learnSource,
      Subjects.artifact.saveExemplar,
    ],
    publishes: [],
    consumes: [
      { stream: Streams.jobs.name, durable: Streams.jobs.workerDurable },
      { stream: Streams.jobs.name, durable: Streams.jobs.learnDurable },
    ],
  },
  'webhook-dispatcher': {
    serves: [...all(Subjects.webhook), ping('webhook-dispatcher')],
    // Events carry references, not results: the dispatcher reads the result it delivers (ADR 0008).
    calls: [Subjects.artifact.getJob],
    publishes: [],
    consumes: [
      { stream: Streams.events.name, durable: Streams.events.durables.webhookDispatcher },
      { stream: Streams.events.name, durable: Streams.events.durables.webhookCorrections },
    ],
  },
  /** The operator CLI (`npm run admin`): wallets and pipelines, nothing tenant-facing. */
  admin: {
    serves: [],
    calls: [...OPERATOR_BILLING_SUBJECTS, Subjects.billing.getWallet, Subjects.artifact.updatePipeline, Subjects.artifact.listPipelines],
    publishes: [],
    consumes: [],
  },
};

export const NATS_USERS = Object.keys(servicePermissions) as NatsUserName[];

/**
 * The inbox prefix of a NATS user (`inboxPrefix` of every connection it opens): replies to its requests arrive
 * on `<prefix>.<random>`, and its subscribe permission covers `<prefix>.>` only. The default `_INBOX` is
 * shared by everyone, so a user allowed `_INBOX.>` could read every other user's replies (webhook secrets).
 */
export function natsInboxPrefix(user: string): string {
  return `_INBOX_${user}`;
}

/** The nats-server `permissions` of one user, as allow lists (everything else is denied). */
export function natsPermissions(user: NatsUserName): { publish: string[]; subscribe: string[] } {
  const g = servicePermissions[user];
  // Every JetStream user creates the two streams if missing, or updates them to the configured limits
  // (JetStreamBus.ensureStreams), and reads account info.
  const streamAdmin =
    g.publishes.length || g.consumes.length
      ? [
          '$JS.API.INFO',
          ...[Streams.jobs.name, Streams.events.name].flatMap((s) => [
            `$JS.API.STREAM.INFO.${s}`,
            `$JS.API.STREAM.CREATE.${s}`,
            `$JS.API.STREAM.UPDATE.${s}`,
          ]),
        ]
      : [];
  const consumerApi = g.consumes.flatMap(({ stream, durable }) => [
    `$JS.API.CONSUMER.*.${stream}.${durable}`, // INFO, CREATE (add/update), DELETE
    `$JS.API.CONSUMER.*.${stream}.${durable}.>`, // CREATE with a filter subject (server ≥ 2.9)
    `$JS.API.CONSUMER.DURABLE.CREATE.${stream}.${durable}`,
    `$JS.API.CONSUMER.MSG.NEXT.${stream}.${durable}`,
    `$JS.ACK.${stream}.${durable}.>`,
  ]);
  return {
    publish: unique([...g.calls, ...g.publishes, ...streamAdmin, ...consumerApi]),
    subscribe: unique([...g.serves, `${natsInboxPrefix(user)}.>`]),
  };
}

/**
 * The nats-server `authorization { users = [...] }` block for the given passwords (plain or bcrypt
 * `$2a$…` hashes; nats-server accepts both). Users without a password are left out.
 */
export function renderNatsAuthorization(
  passwords: Partial<Record<NatsUserName, string>>,
  opts: { noAuthUser?: string; extraUsers?: string[] } = {},
): string {
  const q = (s: string) => JSON.stringify(s);
  const list = (xs: string[]) => `[${xs.map(q).join(', ')}]`;
  const users = NATS_USERS.filter((u) => passwords[u]).map((u) => {
    const p = natsPermissions(u);
    return `    { user: ${q(u)}, password: ${q(passwords[u] as string)}, permissions: { publish: { allow: ${list(p.publish)} }, subscribe: { allow: ${list(p.subscribe)} }, allow_responses: true } }`;
  });
  return [
    'authorization {',
    '  users = [',
    [...users, ...(opts.extraUsers ?? []).map((u) => `    ${u}`)].join(',\n'),
    '  ]',
    '}',
    ...(opts.noAuthUser ? [`no_auth_user: ${q(opts.noAuthUser)}`] : []),
    '',
  ].join('\n');
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}
