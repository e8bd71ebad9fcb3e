import { describe, expect, it } from '@jest/globals';
import type { JobFinishedEvent } from '@docket/contracts';
import { buildBody, eventTypesFor } from './event-payload.js';

const all = ['extraction.completed', 'extraction.failed', 'artifact.processed'];

describe('event payloads', () => {
  it('maps a finished job to exactly one subscribed event type (one delivery per job)', () => {
    expect(eventTypesFor('success', all)).toEqual(['extraction.completed']);
    expect(eventTypesFor('failed', all)).toEqual(['extraction.failed']);
    expect(eventTypesFor('expired', all)).toEqual(['extraction.failed']);
    expect(eventTypesFor('cancelled', all)).toEqual(['extraction.failed']);
    expect(eventTypesFor('success', ['extraction.failed'])).toEqual([]);
    expect(eventTypesFor('success', ['artifact.processed'])).toEqual(['artifact.processed']);
    expect(eventTypesFor('failed', ['artifact.processed', 'extraction.completed'])).toEqual(['artifact.processed']);
    expect(eventTypesFor('cancelled', ['artifact.processed'])).toEqual([]);
  });

  it('builds the body with result on success, error on failure, batch_id only when set', () => {
    const ev: JobFinishedEvent = {
      eventId: 'e1',
      jobId: 'job_1',
      artifactId: 'art_1',
      accountId: 'acct_1',
      sandbox: false,
      status: 'success',
      pages: 1,
      webhookId: 'wh_1',
      batchId: null,
      filename: 'a.pdf',
      result: { total: 3 },
      confidence: 0.9,
      needsReview: false,
      error: null,
      createdAt: '2025-01-01T00:00:00.000Z',
      finishedAt: '2025-01-01T00:01:00.000Z',
    };
    const now = new Date('2025-01-01T00:01:01.000Z');
    expect(buildBody('extraction.completed', ev, now)).toEqual({
      type: 'extraction.completed',
      timestamp: now.toISOString(),
      data: {
        job_id: 'job_1',
        artifact_id: 'art_1',
        status: 'success',
        result: { total: 3 },
        confidence: 0.9,
        needs_review: false,
        filename: 'a.pdf',
        completed_at: ev.finishedAt,
      },
    });
    const failed = buildBody('extraction.failed', { ...ev, status: 'failed', result: null, error: 'boom: x', batchId: 'bat_1' }, now);
    expect(failed.data).toMatchObject({ error: 'boom: x', batch_id: 'bat_1' });
    expect(failed.data).not.toHaveProperty('result');
  });
});
