import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { call, type Credentials, type Page } from './api.js';
import { ResultView } from './ResultView.js';

interface ReviewItem {
  job_id: string;
  artifact_id: string;
  filename: string;
  template_id: string | null;
  confidence: number | null;
  result_version: number;
  created_at: string;
}

/** The review queue: correct values in place or approve, then move to the next job. */
export function Review({ creds }: { creds: Credentials }) {
  const [current, setCurrent] = useState<string | null>(null);
  const queue = useQuery({ queryKey: ['review'], queryFn: () => call<Page<ReviewItem>>(creds, 'GET', '/review?size=50') });
  const items = queue.data?.items ?? [];
  const active = items.find((i) => i.job_id === current) ?? (current ? null : items[0]);
  const next = () => {
    const i = items.findIndex((x) => x.job_id === active?.job_id);
    setCurrent(items[i + 1]?.job_id ?? null);
    void queue.refetch();
  };
  return (
    <section aria-label="Review queue" className="review">
      <h2>Review queue ({queue.data?.total ?? 0})</h2>
      <ol className="queue">
        {items.map((i) => (
          <li key={i.job_id} className={i.job_id === active?.job_id ? 'selected' : ''}>
            <button type="button" className="link" onClick={() => setCurrent(i.job_id)}>
              {i.filename}
            </button>{' '}
            {i.confidence === null ? '' : `${Math.round(i.confidence * 100)}%`}
          </li>
        ))}
      </ol>
      {active ? (
        <ResultView key={active.job_id} creds={creds} jobId={active.job_id} review={{ templateId: active.template_id, onDone: next }} />
      ) : (
        <p>{queue.isLoading ? 'Loading…' : 'Nothing waits for review.'}</p>
      )}
    </section>
  );
}
