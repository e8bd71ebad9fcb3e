// Which 5xx a chaos run accepts: a 503 (dependency down) or 504 (reply lost) only for a request whose own
// handler — a process or dependency that request goes through — was the target of a fault while the request was
// in flight. A fault elsewhere excuses nothing: a PUT to storage while the extraction worker is restarted must
// still succeed, and so must an /extract while storage is paused.

/** What each step of a submission goes through (the gateway authenticates against Postgres on every call). */
export const REQUEST_HANDLERS = {
  /** POST /extract: schema snapshot (template), webhook registration (webhook-dispatcher), hold (billing). */
  extract: ['gateway', 'artifact', 'template', 'webhook-dispatcher', 'billing', 'nats', 'postgres'],
  /** PUT of the bytes to the presigned URL: storage only. */
  upload: ['s3'],
  /** POST /artifacts/{id}/confirm-upload: HEAD of the object, hold re-sized by billing, outbox row. */
  confirm: ['gateway', 'artifact', 'billing', 's3', 'nats', 'postgres'],
};

/** The faults of a run with the time each began and ended (healthy again). */
export class FaultTimeline {
  constructor() {
    /** @type {{ name: string, target: string, start: number, end?: number }[]} */
    this.faults = [];
  }

  /** A fault on `target` (a service name, `nats`, `postgres` or `s3`) starts now. */
  begin(name, target, at = Date.now()) {
    const fault = { name, target, start: at };
    this.faults.push(fault);
    return fault;
  }

  end(fault, at = Date.now()) {
    fault.end = at;
  }

  /** The name of the fault running now, if any. */
  current() {
    return this.faults.find((f) => f.end === undefined)?.name ?? null;
  }

  /**
   * The fault that excuses a 503/504 for a request of `kind` (a REQUEST_HANDLERS key) in flight from `start`
   * to `end`: one on a handler of that request, overlapping it. Undefined when none does (a violation).
   */
  excuse(kind, start, end) {
    const handlers = REQUEST_HANDLERS[kind];
    if (!handlers) throw new Error(`unknown request kind ${kind}`);
    return this.faults.find((f) => handlers.includes(f.target) && f.start <= end && (f.end ?? Infinity) >= start)?.name;
  }
}

/** 503 and 504 are the only 5xx a fault may excuse. */
export function isExcusable(status) {
  return status === 503 || status === 504;
}

/** The service error lines that name the request id of a violation (the cause of a 500). */
export function logsOf(violations, errorLog) {
  const ids = violations.map((v) => /req_[0-9a-z]+/.exec(v)?.[0]).filter(Boolean);
  return errorLog.filter((line) => ids.some((id) => line.includes(id)));
}

/** Counts of each distinct value. */
export function summarise(xs) {
  const out = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
}
