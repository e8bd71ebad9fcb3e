import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, errorText, type Credentials } from './api.js';

const EVENTS = ['extraction.completed', 'extraction.failed', 'artifact.processed', 'job.corrected'];
/** Deliveries shown per webhook (newest first). */
const DELIVERIES_SHOWN = 20;

interface Webhook {
  id: string;
  url: string;
  description: string;
  events: string[];
  is_active: boolean;
}
interface Delivery {
  id: string;
  job_id: string;
  event_type: string;
  attempt_number: number;
  response_status_code: number | null;
  is_success: boolean;
  duration_ms: number;
  attempted_at: string;
}

/** Signing secrets appear once, at creation and rotation. */
function SigningSecret({ secret }: { secret: string }) {
  return (
    <div className="shown-once" role="status" aria-label="Signing secret, shown once">
      Signing secret (shown once; verify deliveries with it): <code data-testid="webhook-secret">{secret}</code>
    </div>
  );
}

/** The account's webhooks: register, rotate the signing secret, the delivery log. */
export function Webhooks({ creds }: { creds: Credentials }) {
  const qc = useQueryClient();
  const [selected, setSelected] = useState<string | null>(null);
  const [form, setForm] = useState({ url: '', description: '', events: ['extraction.completed', 'extraction.failed'] });
  const list = useQuery({ queryKey: ['webhooks'], queryFn: () => call<Webhook[]>(creds, 'GET', '/webhooks') });
  const create = useMutation({
    mutationFn: () => call<Webhook & { secret_key: string }>(creds, 'POST', '/webhooks', form),
    onSuccess: (w) => {
      setSelected(w.id);
      void qc.invalidateQueries({ queryKey: ['webhooks'] });
    },
  });
  const toggle = (e: string) =>
    setForm({ ...form, events: form.events.includes(e) ? form.events.filter((x) => x !== e) : [...form.events, e] });
  const hook = list.data?.find((w) => w.id === selected);
  return (
    <section aria-label="Webhooks">
      <h2>Webhooks</h2>
      <form
        className="panel inline-form"
        aria-label="Register a webhook"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <label>
          Endpoint URL (HTTPS)
          <input name="webhook-url" type="url" required value={form.url} onChange={(e) => setForm({ ...form, url: e.target.value })} />
        </label>
        <label>
          Description
          <input
            name="webhook-description"
            maxLength={255}
            value={form.description}
            onChange={(e) => setForm({ ...form, description: e.target.value })}
          />
        </label>
        <fieldset>
          <legend>Events</legend>
          {EVENTS.map((e) => (
            <label key={e} className="check">
              <input type="checkbox" checked={form.events.includes(e)} onChange={() => toggle(e)} /> {e}
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={create.isPending}>
          Register
        </button>
      </form>
      {create.error && <p role="alert">{errorText(create.error)}</p>}
      {create.data && <SigningSecret secret={create.data.secret_key} />}
      <ul className="cards">
        {list.data?.map((w) => (
          <li key={w.id} className={w.id === selected ? 'selected' : ''}>
            <button type="button" className="link" aria-pressed={w.id === selected} onClick={() => setSelected(w.id)}>
              {w.url}
            </button>{' '}
            <span className={`badge ${w.is_active ? 'live' : 'warn'}`}>{w.is_active ? 'active' : 'inactive'}</span> {w.description}
            <div className="hint">{w.events.join(', ')}</div>
          </li>
        ))}
      </ul>
      {list.data?.length === 0 && <p>No webhooks yet.</p>}
      {hook && <WebhookDetail key={hook.id} creds={creds} hook={hook} />}
    </section>
  );
}

function WebhookDetail({ creds, hook }: { creds: Credentials; hook: Webhook }) {
  const rotate = useMutation({ mutationFn: () => call<{ secret_key: string }>(creds, 'POST', `/webhooks/${hook.id}/rotate-secret`) });
  const deliveries = useQuery({
    queryKey: ['webhooks', hook.id, 'deliveries'],
    queryFn: () => call<Delivery[]>(creds, 'GET', `/webhooks/${hook.id}/deliveries?limit=${DELIVERIES_SHOWN}`),
  });
  return (
    <section className="panel" aria-label={`Webhook ${hook.url}`}>
      <h3>
        <code>{hook.id}</code>
      </h3>
      <p className="actions">
        <button type="button" onClick={() => rotate.mutate()} disabled={rotate.isPending}>
          Rotate signing secret
        </button>
        <span className="hint">The previous secret stays valid for 24 hours.</span>
      </p>
      {rotate.data && <SigningSecret secret={rotate.data.secret_key} />}
      {rotate.error && <p role="alert">{errorText(rotate.error)}</p>}
      <h4>Deliveries (newest first)</h4>
      {deliveries.data?.length === 0 && <p>No deliveries yet.</p>}
      {!!deliveries.data?.length && (
        <div className="table-scroll">
          <table>
            <caption className="sr-only">Deliveries of {hook.url}</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Job</th>
                <th scope="col">Attempt</th>
                <th scope="col">Status</th>
                <th scope="col">Time</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.map((d) => (
                <tr key={d.id}>
                  <td>{new Date(d.attempted_at).toLocaleString()}</td>
                  <td>{d.event_type}</td>
                  <td>
                    <code>{d.job_id}</code>
                  </td>
                  <td>{d.attempt_number}</td>
                  <td className={d.is_success ? 'status-success' : 'status-failed'}>{d.response_status_code ?? 'no response'}</td>
                  <td>{d.duration_ms} ms</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
