import { useEffect, useState } from 'react';
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
  // The job on screen stays until Next, even once a correction or approval took it out of the queue.
  const [active, setActive] = useState<ReviewItem | null>(null);
  const queue = useQuery({ queryKey: ['review'], queryFn: () => call<Page<ReviewItem>>(creds, 'GET', '/review?size=50') });
  const items = queue.data?.items ?? [];
  useEffect(() => {
    if (!active && items.length) setActive(items[0]);
  }, [active, items]);
  const next = async () => {
    const fresh = (await queue.refetch()).data?.items ?? [];
    const after = items.slice(items.findIndex((x) => x.job_id === active?.job_id) + 1);
    setActive(after.find((x) => fresh.some((f) => f.job_id === x.job_id)) ?? fresh.find((x) => x.job_id !== active?.job_id) ?? null);
  };
  return (
    <section aria-label="Review queue" className="review">
      <h2>Review queue ({queue.data?.total ?? 0})</h2>
      <ol className="queue">
        {items.map((i) => (
          <li key={i.job_id} className={i.job_id === active?.job_id ? 'selected' : ''}>
            <button type="button" className="link" onClick={() => setActive(i)}>
              {i.filename}
            </button>{' '}
            {i.confidence === null ? '' : `${Math.round(i.confidence * 100)}%`}
          </li>
        ))}
      </ol>
      {active ? (
        <ResultView
          key={active.job_id}
          creds={creds}
          jobId={active.job_id}
          review={{ templateId: active.template_id, onDone: () => void next() }}
        />
      ) : (
        <p>{queue.isLoading ? 'Loading…' : 'Nothing waits for review.'}</p>
      )}
    </section>
  );
}
