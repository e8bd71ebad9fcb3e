/** Credentials of one NATS user (nats-server `authorization.users`); spread into every connect call. */
export interface NatsAuth {
  user?: string;
  pass?: string;
}

/** The NATS user of a process from its validated config (`NATS_USER` / `NATS_PASSWORD`); empty when unset. */
export function natsAuth(cfg: { NATS_USER?: string; NATS_PASSWORD?: string }): NatsAuth {
  return cfg.NATS_USER ? { user: cfg.NATS_USER, pass: cfg.NATS_PASSWORD } : {};
}
