import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminCall, errorText, type AdminAccount, type IssuedSecret } from './api.js';
import { AdminKey, ShownOnce } from './AdminKey.js';
import { AdminWallet } from './AdminWallet.js';

const PAGE_SIZE = 20;

interface AccountsPage {
  accounts: AdminAccount[];
  page: number;
  size: number;
  total: number;
}
interface CreatedAccount {
  account_id: string;
  sandbox: IssuedSecret;
  live: IssuedSecret;
}

/** Admin mode: accounts, their credentials and wallets through the gateway's admin routes (ADMIN_TOKEN). */
export function Admin({ token }: { token: string }) {
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string | null>(null);
  const accounts = useQuery({
    queryKey: ['admin', 'accounts', page],
    queryFn: () => adminCall<AccountsPage>(token, 'GET', `/accounts?page=${page}&size=${PAGE_SIZE}`),
  });
  const account = accounts.data?.accounts.find((a) => a.account_id === selected);
  const pages = Math.max(1, Math.ceil((accounts.data?.total ?? 0) / PAGE_SIZE));
  return (
    <section aria-label="Admin" className="admin">
      <CreateAccount token={token} onCreated={setSelected} />
      <h2>Accounts ({accounts.data?.total ?? 0})</h2>
      {accounts.error && <p role="alert">{errorText(accounts.error)}</p>}
      <div className="table-scroll">
        <table>
          <caption className="sr-only">Accounts, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Account</th>
              <th scope="col">Keys</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {accounts.data?.accounts.map((a) => (
              <tr key={a.account_id} className={a.account_id === selected ? 'selected' : ''}>
                <td>
                  <button type="button" className="link" onClick={() => setSelected(a.account_id)} aria-pressed={a.account_id === selected}>
                    {a.name}
                  </button>
                </td>
                <td>
                  <code>{a.account_id}</code>
                </td>
                <td>{a.keys.map((k) => `${k.environment}${k.revoked_at ? ' (revoked)' : ''}`).join(', ')}</td>
                <td>{new Date(a.created_at).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav aria-label="Account pages" className="pager">
        <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
          Previous
        </button>
        <span>
          page {page} of {pages}
        </span>
        <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
          Next
        </button>
      </nav>
      {account && <AccountDetail key={account.account_id} token={token} account={account} />}
    </section>
  );
}

function CreateAccount({ token, onCreated }: { token: string; onCreated(accountId: string): void }) {
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [credits, setCredits] = useState('0');
  const create = useMutation({
    mutationFn: () => adminCall<CreatedAccount>(token, 'POST', '/accounts', { name: name.trim(), credits: Number(credits) }),
    onSuccess: (created) => {
      setName('');
      onCreated(created.account_id);
      void qc.invalidateQueries({ queryKey: ['admin', 'accounts'] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <div className="panel">
      <form className="inline-form" onSubmit={submit} aria-label="Create account">
        <h2>Create account</h2>
        <label>
          Name
          <input name="account-name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        </label>
        <label>
          Opening credits
          <input name="opening-credits" type="number" min={0} step="any" value={credits} onChange={(e) => setCredits(e.target.value)} />
        </label>
        <button type="submit" disabled={create.isPending}>
          Create
        </button>
      </form>
      {create.error && <p role="alert">{errorText(create.error)}</p>}
      {create.data && <ShownOnce title={`Credentials of ${create.data.account_id}`} secrets={[create.data.sandbox, create.data.live]} />}
    </div>
  );
}

function AccountDetail({ token, account }: { token: string; account: AdminAccount }) {
  return (
    <section aria-label={`Account ${account.name}`} className="panel">
      <h2>
        {account.name} <code>{account.account_id}</code>
      </h2>
      <AdminWallet token={token} accountId={account.account_id} />
      <h3>API keys</h3>
      {account.keys.map((k) => (
        <AdminKey key={k.api_key} token={token} apiKey={k} />
      ))}
    </section>
  );
}
