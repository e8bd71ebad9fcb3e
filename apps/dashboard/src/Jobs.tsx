import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call, type ArtifactRecord, type Credentials, type Page } from './api.js';

interface ArtifactItem {
  id: string;
  filename: string;
  status: string;
  uploaded_at: string | null;
  confidence: number | null;
  needs_review: boolean;
}

const STATUSES = ['', 'completed', 'processing', 'uploaded', 'pending_upload', 'failed', 'cancelled', 'expired'];

/** The account's artifacts, newest first, paged; filters on status and needs-review apply to the page shown. */
export function Jobs({ creds, onOpen }: { creds: Credentials; onOpen(jobId: string): void }) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState('');
  const [needsReview, setNeedsReview] = useState(false);
  const list = useQuery({
    queryKey: ['artifacts', page],
    queryFn: () => call<Page<ArtifactItem>>(creds, 'GET', `/artifacts/?page=${page}&size=20`),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });
  const open = async (artifactId: string) => {
    const a = await call<ArtifactRecord>(creds, 'GET', `/artifacts/${artifactId}`);
    const latest = a.jobs[a.jobs.length - 1];
    if (latest) onOpen(latest.job_id);
  };
  const rows = (list.data?.items ?? []).filter((a) => (!status || a.status === status) && (!needsReview || a.needs_review));
  return (
    <section aria-label="Jobs">
      <h2>Jobs</h2>
      <div className="filters">
        <label>
          Status
          <select value={status} onChange={(e) => setStatus(e.target.value)}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s || 'any'}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={needsReview} onChange={(e) => setNeedsReview(e.target.checked)} /> needs review
        </label>
      </div>
      <table className="list">
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Status</th>
            <th scope="col">Uploaded</th>
            <th scope="col">Confidence</th>
            <th scope="col">Review</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((a) => (
            <tr key={a.id}>
              <td>
                <button type="button" className="link" onClick={() => void open(a.id)}>
                  {a.filename}
                </button>
              </td>
              <td>
                <span className={`status status-${a.status}`}>{a.status}</span>
              </td>
              <td>{a.uploaded_at ? new Date(a.uploaded_at).toLocaleString() : '—'}</td>
              <td>{a.confidence === null ? '—' : `${Math.round(a.confidence * 100)}%`}</td>
              <td>{a.needs_review ? 'needs review' : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <nav className="pager" aria-label="Pages">
        <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
          Previous
        </button>
        <span>
          page {list.data?.page ?? page} of {Math.max(1, list.data?.pages ?? 1)} ({list.data?.total ?? 0} in all)
        </span>
        <button type="button" disabled={page >= (list.data?.pages ?? 1)} onClick={() => setPage(page + 1)}>
          Next
        </button>
      </nav>
    </section>
  );
}
