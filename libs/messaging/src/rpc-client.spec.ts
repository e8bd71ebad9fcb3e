import { describe, expect, it } from '@jest/globals';
import { toDocketError } from './rpc-client.js';

describe('toDocketError', () => {
  it('maps a lost NATS connection (server restart) to service_unavailable (503), not internal_error', () => {
    for (const raw of ['Error: Connection lost. Trying to reconnect...', new Error('connection closed')]) {
      expect(toDocketError(raw, 'artifact.v1.extract.create').code).toBe('service_unavailable');
    }
  });

  it('keeps anything else an internal error', () => {
    expect(toDocketError(new Error('boom'), 'artifact.v1.extract.create').code).toBe('internal_error');
  });
});
