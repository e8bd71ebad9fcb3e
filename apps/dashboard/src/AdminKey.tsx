import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminCall, errorText, type AdminAccount, type IssuedSecret } from './api.js';

interface SecretRecord {
  secret_id: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}
interface KeyRateLimit {
  requests_per_minute: number;
  source: 'override' | 'default';
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/** Freshly issued secrets: shown in this panel only, never again (only their digests are stored). */
export function ShownOnce({ title, secrets }: { title: string; secrets: IssuedSecret[] }) {
  return (
    <div className="shown-once" role="status" aria-label="New secrets, shown once">
      <h3>{title}</h3>
      <p>Copy these now: the secrets are shown once and cannot be read again.</p>
      <dl>
        {secrets.map((s) => (
          <div key={s.secret_id}>
            <dt>
              <code>{s.api_key}</code>
            </dt>
            <dd>
              secret <code data-testid="shown-secret">{s.secret}</code> <small>({s.secret_id})</small>
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** One API key in admin mode: its secrets (rotate, revoke), revoking the key, its rate limit. */
export function AdminKey({ token, apiKey }: { token: string; apiKey: AdminAccount['keys'][number] }) {
  const qc = useQueryClient();
  const key = apiKey.api_key;
  const secretsKey = ['admin', 'secrets', key];
  const secrets = useQuery({
    queryKey: secretsKey,
    queryFn: () => adminCall<{ secrets: SecretRecord[] }>(token, 'GET', `/keys/${key}/secrets`),
  });
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: secretsKey });
    void qc.invalidateQueries({ queryKey: ['admin', 'accounts'] });
  };
  const rotate = useMutation({ mutationFn: () => adminCall<IssuedSecret>(token, 'POST', `/keys/${key}/secrets`), onSuccess: refresh });
  const revoke = useMutation({
    mutationFn: (secretId: string) => adminCall(token, 'DELETE', `/keys/${key}/secrets/${secretId}`),
    onSuccess: refresh,
  });
  const revokeKey = useMutation({ mutationFn: () => adminCall(token, 'DELETE', `/keys/${key}`), onSuccess: refresh });
  const error = rotate.error ?? revoke.error ?? revokeKey.error ?? secrets.error;
  return (
    <section className="key-admin" aria-label={`Key ${key}`}>
      <h4>
        <span className={`badge ${apiKey.environment}`}>{apiKey.environment}</span> <code>{key}</code>
        {apiKey.revoked_at && <span className="badge warn">revoked {when(apiKey.revoked_at)}</span>}
      </h4>
      <div className="table-scroll">
        <table>
          <caption className="sr-only">Secrets of {key}, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Secret</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Revoked</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {secrets.data?.secrets.map((s) => (
              <tr key={s.secret_id}>
                <td>
                  <code>{s.secret_id}</code>
                </td>
                <td>{when(s.created_at)}</td>
                <td>{when(s.last_used_at)}</td>
                <td>{when(s.revoked_at)}</td>
                <td>
                  {!s.revoked_at && (
                    <button type="button" onClick={() => revoke.mutate(s.secret_id)} aria-label={`Revoke secret ${s.secret_id}`}>
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!apiKey.revoked_at && (
        <p className="actions">
          <button type="button" onClick={() => rotate.mutate()} disabled={rotate.isPending} aria-label={`Issue a new secret for ${key}`}>
            Issue new secret
          </button>
          <button
            type="button"
            onClick={() => window.confirm(`Revoke ${key} and all its secrets?`) && revokeKey.mutate()}
            aria-label={`Revoke key ${key}`}
          >
            Revoke key
          </button>
        </p>
      )}
      {rotate.data && <ShownOnce title="New secret" secrets={[rotate.data]} />}
      <RateLimit token={token} apiKey={key} />
      {error && <p role="alert">{errorText(error)}</p>}
    </section>
  );
}

/** A key's requests-per-minute override; empty drops it (the environment default applies). */
function RateLimit({ token, apiKey }: { token: string; apiKey: string }) {
  const [value, setValue] = useState('');
  const set = useMutation({
    mutationFn: () =>
      adminCall<KeyRateLimit>(token, 'PUT', `/keys/${apiKey}/rate-limit`, { per_minute: value === '' ? null : Number(value) }),
  });
  return (
    <form
      className="inline-form"
      aria-label={`Rate limit of ${apiKey}`}
      onSubmit={(e) => {
        e.preventDefault();
        set.mutate();
      }}
    >
      <label>
        Requests per minute (empty: default)
        <input name="per-minute" type="number" min={1} max={1000000} step={1} value={value} onChange={(e) => setValue(e.target.value)} />
      </label>
      <button type="submit" disabled={set.isPending}>
        Set rate limit
      </button>
      {set.data && (
        <span role="status">
          {set.data.requests_per_minute}/min ({set.data.source})
        </span>
      )}
      {set.error && <span role="alert">{errorText(set.error)}</span>}
    </form>
  );
}
