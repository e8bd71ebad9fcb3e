import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, call, type ArtifactRecord, type Credentials, type FieldDef, type Job, type ResultVersions } from './api.js';
import { confidenceColour, PageView } from './PageView.js';

interface Props {
  creds: Credentials;
  jobId: string;
  /** Review mode: values are editable, with Save corrections / Approve. */
  review?: { templateId: string | null; onDone(): void };
}

const show = (v: unknown) =>
  v === undefined || v === null
    ? '—'
    : typeof v === 'object' && v && 'value' in v
      ? `${(v as { value: unknown }).value} ${(v as { currency?: string }).currency ?? ''}`.trim()
      : typeof v === 'object'
        ? JSON.stringify(v)
        : String(v);

/** What the input shows for a value, and how the edited text becomes a value of the field's type again. */
function toText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'object' && 'value' in (v as object)) return String((v as { value: unknown }).value);
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

function fromText(text: string, before: unknown, type: string | undefined): unknown {
  if (text.trim() === '') return null;
  if (type === 'currency' || (before && typeof before === 'object' && 'value' in (before as object))) {
    return { value: Number(text), currency: (before as { currency?: string } | undefined)?.currency ?? null };
  }
  if (type === 'number' || typeof before === 'number') return Number(text);
  if (type === 'boolean' || typeof before === 'boolean') return text === 'true';
  if (type === 'table' || Array.isArray(before)) return JSON.parse(text);
  return text;
}

export function ResultView({ creds, jobId, review }: Props) {
  const qc = useQueryClient();
  const [selected, setSelected] = useState<string | null>(null);
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const job = useQuery({ queryKey: ['job', jobId], queryFn: () => call<Job>(creds, 'GET', `/job/${jobId}`) });
  const versions = useQuery({
    queryKey: ['results', jobId],
    queryFn: () => call<ResultVersions>(creds, 'GET', `/job/${jobId}/results`),
    enabled: job.data?.status === 'success',
  });
  const artifactId = job.data?.artifact_id;
  const artifact = useQuery({
    queryKey: ['artifact', artifactId],
    queryFn: () => call<ArtifactRecord>(creds, 'GET', `/artifacts/${artifactId}`),
    enabled: !!artifactId,
  });
  const raw = useQuery({
    queryKey: ['raw', artifactId],
    queryFn: () => call<{ download_url: string }>(creds, 'GET', `/artifacts/${artifactId}/download?file_type=raw`),
    enabled: !!artifactId,
    retry: false,
  });
  const template = useQuery({
    queryKey: ['template', review?.templateId],
    queryFn: () => call<{ schema_definition: { fields: FieldDef[] } }>(creds, 'GET', `/templates/${review!.templateId}`),
    enabled: !!review?.templateId,
  });
  const types = Object.fromEntries((template.data?.schema_definition.fields ?? []).map((f) => [f.key, f.data_type]));

  const refresh = () => Promise.all(['job', 'results', 'review'].map((k) => qc.invalidateQueries({ queryKey: [k] })));
  const correct = useMutation({
    mutationFn: () => {
      const result = job.data?.result ?? {};
      const fields = Object.fromEntries(Object.entries(edits).map(([k, t]) => [k, fromText(t, result[k], types[k])]));
      return call<Job>(creds, 'POST', `/job/${jobId}/corrections`, { fields });
    },
    onSuccess: async (j) => {
      setEdits({});
      setMessage(`Saved as version ${j.result_version}`);
      await refresh();
    },
    onError: (e) => setMessage(e instanceof ApiError ? `${e.code}: ${describe(e.details) || e.message}` : String(e)),
  });
  const approve = useMutation({
    mutationFn: () => call<Job>(creds, 'POST', `/job/${jobId}/approve`),
    onSuccess: async () => {
      setMessage('Approved');
      await refresh();
    },
  });

  if (job.isLoading) return <p>Loading job…</p>;
  if (job.error) return <p role="alert">{String(job.error)}</p>;
  const j = job.data!;
  const result = j.result ?? {};
  const meta = versions.data?.fields ?? {};
  const keys = [...new Set([...Object.keys(types), ...Object.keys(result), ...Object.keys(meta)])];
  const page = (selected && meta[selected]?.page) || 1;
  const download = async (fileType: string) => {
    const d = await call<{ download_url: string }>(creds, 'GET', `/artifacts/${j.artifact_id}/download?file_type=${fileType}`);
    window.open(d.download_url, '_blank', 'noopener');
  };

  return (
    <section className="result" aria-label="Result">
      <header className="result-head">
        <h2>{artifact.data?.filename ?? j.artifact_id}</h2>
        <span className={`status status-${j.status}`}>{j.status}</span>
        {j.needs_review && <span className="badge warn">needs review</span>}
        {j.result_version && <span className="badge">version {j.result_version}</span>}
        <span className="downloads">
          {['raw', 'json', 'md'].map((t) => (
            <button key={t} type="button" onClick={() => void download(t)}>
              Download {t}
            </button>
          ))}
        </span>
      </header>
      {j.error && <p role="alert">{j.error}</p>}
      <div className="result-body">
        {raw.data && artifact.data ? (
          <PageView
            url={raw.data.download_url}
            contentType={artifact.data.artifact_type}
            page={page}
            fields={meta}
            selected={selected}
            onSelect={setSelected}
          />
        ) : (
          <p className="page placeholder">{raw.error ? 'The source file is no longer stored.' : 'Loading page…'}</p>
        )}
        <table className="fields">
          <caption>Fields</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Value</th>
              <th scope="col">Confidence</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => {
              const m = meta[k];
              return (
                <tr key={k} className={selected === k ? 'selected' : ''} data-field-row={k} onClick={() => setSelected(k)}>
                  <th scope="row">
                    <button type="button" className="link" onClick={() => setSelected(k)} aria-pressed={selected === k}>
                      {k}
                    </button>
                  </th>
                  <td>
                    {review ? (
                      <input
                        aria-label={`Value of ${k}`}
                        value={edits[k] ?? toText(result[k])}
                        onChange={(e) => setEdits({ ...edits, [k]: e.target.value })}
                      />
                    ) : (
                      show(result[k])
                    )}
                    {m?.errors?.map((e) => (
                      <div key={e} className="error">
                        {e}
                      </div>
                    ))}
                  </td>
                  <td>{m ? <span style={{ color: confidenceColour(m.confidence) }}>{Math.round(m.confidence * 100)}%</span> : '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {review && (
        <div className="actions">
          <button type="button" disabled={!Object.keys(edits).length || correct.isPending} onClick={() => correct.mutate()}>
            Save corrections
          </button>
          <button type="button" disabled={approve.isPending} onClick={() => approve.mutate()}>
            Approve
          </button>
          <button type="button" onClick={review.onDone}>
            Next
          </button>
        </div>
      )}
      {message && <p role="status">{message}</p>}
      {versions.data && (
        <section aria-label="Version history">
          <h3>Version history</h3>
          <ol className="versions">
            {versions.data.versions.map((v) => (
              <li key={v.version}>
                v{v.version} · {v.source} · {new Date(v.created_at).toLocaleString()} {v.api_key_id ? `· ${v.api_key_id}` : ''}
                {v.changed_fields.length > 0 && ` · changed: ${v.changed_fields.join(', ')}`}
              </li>
            ))}
          </ol>
        </section>
      )}
    </section>
  );
}

function describe(details: unknown): string {
  return Array.isArray(details) ? details.map((d: { field?: string; message?: string }) => `${d.field} ${d.message}`).join('; ') : '';
}
