import { natsInboxPrefix } from '@docket/contracts';

/** Credentials of one NATS user (nats-server `authorization.users`) and its own inbox prefix; spread into every connect call. */
export interface NatsAuth {
  user?: string;
  pass?: string;
  /** Replies to this user's requests arrive under this prefix, the only inboxes its permissions let it read. */
  inboxPrefix?: string;
}

/** The NATS user of a process from its validated config (`NATS_USER` / `NATS_PASSWORD`); empty when unset. */
export function natsAuth(cfg: { NATS_USER?: string; NATS_PASSWORD?: string }): NatsAuth {
  return cfg.NATS_USER ? { user: cfg.NATS_USER, pass: cfg.NATS_PASSWORD, inboxPrefix: natsInboxPrefix(cfg.NATS_USER) } : {};
}
