import { useState, type FormEvent } from 'react';
import { ApiError, call, saveCredentials, type Credentials } from './api.js';

/** Sign in with an API key and its secret; checked against GET /wallet, then kept for this tab only. */
export function SignIn({ onSignedIn }: { onSignedIn(c: Credentials): void }) {
  const [key, setKey] = useState('');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const c = { key: key.trim(), secret: secret.trim() };
    try {
      await call(c, 'GET', '/wallet');
      saveCredentials(c);
      onSignedIn(c);
    } catch (err) {
      setError(err instanceof ApiError && err.status === 401 ? 'Key or secret not accepted' : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="signin" onSubmit={(e) => void submit(e)} aria-label="Sign in">
      <h1>Docket</h1>
      <label>
        API key
        <input name="key" autoComplete="username" placeholder="dk_live_…" value={key} onChange={(e) => setKey(e.target.value)} required />
      </label>
      <label>
        Secret
        <input
          name="secret"
          type="password"
          autoComplete="current-password"
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
          required
        />
      </label>
      <button type="submit" disabled={busy}>
        Sign in
      </button>
      {error && <p role="alert">{error}</p>}
      <p className="hint">The key and secret stay in this browser tab (session storage) and are sent only to this server.</p>
    </form>
  );
}
