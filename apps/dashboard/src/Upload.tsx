import { useState, type DragEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { call, TERMINAL, uploadFile, type Credentials, type Job } from './api.js';

interface Item {
  name: string;
  state: string;
  jobId?: string;
}

function JobStatus({ creds, jobId, onOpen }: { creds: Credentials; jobId: string; onOpen(id: string): void }) {
  const job = useQuery({
    queryKey: ['job', jobId],
    queryFn: () => call<Job>(creds, 'GET', `/job/${jobId}`),
    refetchInterval: (q) => (q.state.data && TERMINAL.includes(q.state.data.status) ? false : 1000),
  });
  const status = job.data?.status ?? 'submitted';
  return (
    <>
      <span className={`status status-${status}`} data-testid="job-status">
        {status}
      </span>
      {status === 'success' && (
        <button type="button" className="link" onClick={() => onOpen(jobId)}>
          View result
        </button>
      )}
    </>
  );
}

/** Drag and drop (or pick) one file or a batch; each goes through submit → PUT → confirm, then its status updates live. */
export function Upload({ creds, onOpen }: { creds: Credentials; onOpen(jobId: string): void }) {
  const [templateId, setTemplateId] = useState('');
  const [items, setItems] = useState<Item[]>([]);
  const [over, setOver] = useState(false);
  const templates = useQuery({
    queryKey: ['templates'],
    queryFn: () => call<{ id: string; name: string }[]>(creds, 'GET', '/templates/?limit=100'),
  });

  async function send(files: File[]) {
    const start = items.length;
    setItems((xs) => [...xs, ...files.map((f) => ({ name: f.name, state: 'uploading' }))]);
    await Promise.all(
      files.map(async (f, i) => {
        const update = (patch: Partial<Item>) => setItems((xs) => xs.map((x, n) => (n === start + i ? { ...x, ...patch } : x)));
        try {
          const sub = await uploadFile(creds, f, templateId);
          update({ state: 'queued', jobId: sub.job_id });
        } catch (e) {
          update({ state: `failed: ${e instanceof Error ? e.message : String(e)}` });
        }
      }),
    );
  }

  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    void send([...e.dataTransfer.files]);
  };

  return (
    <section aria-label="Upload">
      <h2>Upload</h2>
      <label>
        Template
        <select value={templateId} onChange={(e) => setTemplateId(e.target.value)}>
          <option value="">auto (the account default)</option>
          {(Array.isArray(templates.data) ? templates.data : []).map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </label>
      <div
        className={`dropzone${over ? ' over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
      >
        <p>Drop PDF, image or text files here, or</p>
        <label className="button">
          Choose files
          <input type="file" multiple hidden data-testid="file-input" onChange={(e) => void send([...(e.target.files ?? [])])} />
        </label>
      </div>
      <ul className="uploads" aria-live="polite">
        {items.map((it, i) => (
          <li key={i}>
            {it.name} — {it.jobId ? <JobStatus creds={creds} jobId={it.jobId} onOpen={onOpen} /> : it.state}
          </li>
        ))}
      </ul>
    </section>
  );
}
