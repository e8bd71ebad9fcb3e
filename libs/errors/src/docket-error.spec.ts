import { describe, expect, it } from '@jest/globals';
import { DocketError, statusForCode, toEnvelope } from './index.js';

describe('DocketError', () => {
  it('round-trips through a transport payload and maps codes to statuses', () => {
    const err = new DocketError('template_and_schema_both_set', 'both set', [{ field: 'x' }]);
    const back = DocketError.fromPayload(JSON.parse(JSON.stringify(err.toPayload())));
    expect(back?.code).toBe('template_and_schema_both_set');
    expect(back?.status).toBe(400);
    expect(toEnvelope(back!, 'req-1')).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      code: 'template_and_schema_both_set',
      message: 'both set',
      details: [{ field: 'x' }],
      request_id: 'req-1',
    });
  });

  it('rejects unknown codes and treats them as internal', () => {
    expect(DocketError.fromPayload({ code: 'nope', message: 'x' })).toBeUndefined();
    expect(statusForCode('nope')).toBe(500);
  });
});
