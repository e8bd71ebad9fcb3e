import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminCall, errorText, type WalletStatus } from './api.js';

/** The reasons billing records for a freeze (free text there; these are the ones operators use). */
const FREEZE_REASONS = ['manual_freeze', 'payment_failed', 'compliance_review'];

/** One account's wallet in admin mode: balance, spendable, freeze state; deposit, freeze and unfreeze. */
export function AdminWallet({ token, accountId }: { token: string; accountId: string }) {
  const qc = useQueryClient();
  const queryKey = ['admin', 'wallet', accountId];
  const wallet = useQuery({ queryKey, queryFn: () => adminCall<WalletStatus>(token, 'GET', `/accounts/${accountId}/wallet`) });
  const [credits, setCredits] = useState('');
  const [reason, setReason] = useState(FREEZE_REASONS[0]);
  const act = useMutation({
    mutationFn: ({ path, body }: { path: string; body?: unknown }) =>
      adminCall<WalletStatus>(token, 'POST', `/accounts/${accountId}/${path}`, body),
    onSuccess: (w) => {
      qc.setQueryData(queryKey, w);
      setCredits('');
    },
  });
  const w = wallet.data;
  return (
    <div className="wallet-admin">
      <h3>Wallet</h3>
      {wallet.error && <p role="alert">{errorText(wallet.error)}</p>}
      {w && (
        <p data-testid="admin-wallet">
          balance <strong>{w.balance}</strong> · spendable <strong>{w.spendable}</strong> ·{' '}
          {w.is_frozen ? <span className="badge warn">frozen: {w.frozen_reason}</span> : <span className="badge live">active</span>}
        </p>
      )}
      <form
        className="inline-form"
        aria-label="Deposit"
        onSubmit={(e) => {
          e.preventDefault();
          act.mutate({ path: 'deposit', body: { credits: Number(credits) } });
        }}
      >
        <label>
          Credits to deposit
          <input
            name="deposit-credits"
            type="number"
            min={0.000001}
            step="any"
            value={credits}
            onChange={(e) => setCredits(e.target.value)}
            required
          />
        </label>
        <button type="submit" disabled={act.isPending}>
          Deposit
        </button>
      </form>
      {w?.is_frozen ? (
        <button type="button" onClick={() => act.mutate({ path: 'unfreeze' })} disabled={act.isPending}>
          Unfreeze
        </button>
      ) : (
        <form
          className="inline-form"
          aria-label="Freeze"
          onSubmit={(e) => {
            e.preventDefault();
            act.mutate({ path: 'freeze', body: { reason } });
          }}
        >
          <label>
            Freeze reason
            <select name="freeze-reason" value={reason} onChange={(e) => setReason(e.target.value)}>
              {FREEZE_REASONS.map((r) => (
                <option key={r}>{r}</option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={act.isPending}>
            Freeze
          </button>
        </form>
      )}
      {act.error && <p role="alert">{errorText(act.error)}</p>}
    </div>
  );
}
