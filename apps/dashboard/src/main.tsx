import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { call, isSandbox, loadAdminToken, loadCredentials, saveAdminToken, saveCredentials, type Credentials } from './api.js';
import { Admin } from './Admin.js';
import { AdminSignIn } from './AdminSignIn.js';
import { Jobs } from './Jobs.js';
import { ResultView } from './ResultView.js';
import { Review } from './Review.js';
import { SignIn } from './SignIn.js';
import { Upload } from './Upload.js';
import { Templates } from './Templates.js';
import { Webhooks } from './Webhooks.js';
import { Wallet as WalletPage } from './Wallet.js';
import { Exemplars } from './Exemplars.js';
import './styles.css';

type Tab = 'upload' | 'jobs' | 'review' | 'templates' | 'webhooks' | 'wallet' | 'memory';
type View = { name: Tab } | { name: 'result'; jobId: string };
const TABS: { name: Tab; label: string }[] = [
  { name: 'upload', label: 'Upload' },
  { name: 'jobs', label: 'Jobs' },
  { name: 'review', label: 'Review' },
  { name: 'templates', label: 'Templates' },
  { name: 'webhooks', label: 'Webhooks' },
  { name: 'wallet', label: 'Wallet' },
  { name: 'memory', label: 'Memory' },
];

function Wallet({ creds }: { creds: Credentials }) {
  const w = useQuery({
    queryKey: ['wallet'],
    queryFn: () => call<{ balance: number; spendable: number }>(creds, 'GET', '/wallet'),
    refetchInterval: 5000,
  });
  return w.data ? (
    <span className="wallet">
      balance {w.data.balance} · spendable {w.data.spendable}
    </span>
  ) : null;
}

function App() {
  const [creds, setCreds] = useState<Credentials | null>(loadCredentials());
  const [adminToken, setAdminToken] = useState<string | null>(loadAdminToken());
  const [view, setView] = useState<View>({ name: 'upload' });
  if (adminToken) return <AdminApp token={adminToken} onLeave={() => setAdminToken(null)} />;
  if (!creds)
    return (
      <>
        <SignIn onSignedIn={setCreds} />
        <AdminSignIn onSignedIn={setAdminToken} />
      </>
    );
  const open = (jobId: string) => setView({ name: 'result', jobId });
  return (
    <div className="app">
      <header className="top">
        <strong>Docket</strong>
        <span className={`badge ${isSandbox(creds) ? 'sandbox' : 'live'}`} data-testid="env-badge">
          {isSandbox(creds) ? 'sandbox' : 'live'}
        </span>
        <nav aria-label="Main">
          {TABS.map((t) => (
            <button
              key={t.name}
              type="button"
              aria-current={view.name === t.name ? 'page' : undefined}
              onClick={() => setView({ name: t.name })}
            >
              {t.label}
            </button>
          ))}
        </nav>
        <Wallet creds={creds} />
        <button
          type="button"
          onClick={() => {
            saveCredentials(null);
            setCreds(null);
          }}
        >
          Sign out
        </button>
      </header>
      <main>
        {view.name === 'upload' && <Upload creds={creds} onOpen={open} />}
        {view.name === 'jobs' && <Jobs creds={creds} onOpen={open} />}
        {view.name === 'review' && <Review creds={creds} />}
        {view.name === 'result' && <ResultView creds={creds} jobId={view.jobId} />}
        {view.name === 'templates' && <Templates creds={creds} />}
        {view.name === 'webhooks' && <Webhooks creds={creds} />}
        {view.name === 'wallet' && <WalletPage creds={creds} />}
        {view.name === 'memory' && <Exemplars creds={creds} />}
      </main>
    </div>
  );
}

/** Admin mode: its own header (no API key, no wallet of a signed-in account) and the admin page. */
function AdminApp({ token, onLeave }: { token: string; onLeave(): void }) {
  return (
    <div className="app">
      <header className="top">
        <strong>Docket</strong>
        <span className="badge warn" data-testid="env-badge">
          admin
        </span>
        <button
          type="button"
          onClick={() => {
            saveAdminToken(null);
            onLeave();
          }}
        >
          Leave admin mode
        </button>
      </header>
      <main>
        <Admin token={token} />
      </main>
    </div>
  );
}

const client = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={client}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
