import { useState, type FormEvent } from 'react';
import { adminCall, ApiError, saveAdminToken } from './api.js';

/** Admin mode: the operator token (the gateway's ADMIN_TOKEN), checked with GET /admin/accounts, kept for this tab only. */
export function AdminSignIn({ onSignedIn }: { onSignedIn(token: string): void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await adminCall(token.trim(), 'GET', '/accounts?size=1');
      saveAdminToken(token.trim());
      onSignedIn(token.trim());
    } catch (err) {
      const status = err instanceof ApiError ? err.status : 0;
      setError(
        status === 404
          ? 'Admin mode is off on this server (no ADMIN_TOKEN)'
          : status === 401 || status === 403
            ? 'Admin token not accepted'
            : String(err),
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="signin" onSubmit={(e) => void submit(e)} aria-label="Admin mode">
      <h2>Admin mode</h2>
      <label>
        Admin token
        <input name="admin-token" type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} required />
      </label>
      <button type="submit" disabled={busy}>
        Enter admin mode
      </button>
      {error && <p role="alert">{error}</p>}
      <p className="hint">For operators: the gateway&apos;s ADMIN_TOKEN, never an API key. Kept in this tab only.</p>
    </form>
  );
}
