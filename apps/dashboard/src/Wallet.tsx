import { useQueries, useQuery } from '@tanstack/react-query';
import { call, type Credentials, type WalletStatus } from './api.js';

const PERIODS = ['7d', '30d', '90d'] as const;
/** Chart geometry (SVG user units). */
const CHART = { width: 480, rowHeight: 34, labelWidth: 70, barHeight: 12, valueRoom: 30 };

interface Usage {
  period: (typeof PERIODS)[number];
  total_jobs: number;
  successful_jobs: number;
  failed_jobs: number;
  total_spend: number;
}

/** Balance, spendable, credits held for running jobs, and usage over 7, 30 and 90 days (GET /usage per period). */
export function Wallet({ creds }: { creds: Credentials }) {
  const wallet = useQuery({ queryKey: ['wallet'], queryFn: () => call<WalletStatus>(creds, 'GET', '/wallet') });
  const usage = useQueries({
    queries: PERIODS.map((p) => ({ queryKey: ['usage', p], queryFn: () => call<Usage>(creds, 'GET', `/usage?period=${p}`) })),
  });
  const w = wallet.data;
  const rows = usage.map((u) => u.data).filter((u): u is Usage => !!u);
  return (
    <section aria-label="Wallet">
      <h2>Wallet</h2>
      {w && (
        <dl className="stats">
          <div>
            <dt>Balance</dt>
            <dd data-testid="balance">{w.balance}</dd>
          </div>
          <div>
            <dt>Spendable</dt>
            <dd>{w.spendable}</dd>
          </div>
          <div>
            <dt>Held for running jobs</dt>
            <dd>{Math.round((w.balance - w.spendable) * 1e6) / 1e6}</dd>
          </div>
          <div>
            <dt>State</dt>
            <dd>
              {w.is_frozen ? <span className="badge warn">frozen: {w.frozen_reason}</span> : <span className="badge live">active</span>}
            </dd>
          </div>
        </dl>
      )}
      <h3>Usage</h3>
      {rows.length === PERIODS.length && <UsageChart rows={rows} />}
      <div className="table-scroll">
        <table>
          <caption>Usage by period (credits spent exclude holds of running jobs)</caption>
          <thead>
            <tr>
              <th scope="col">Period</th>
              <th scope="col">Jobs</th>
              <th scope="col">Successful</th>
              <th scope="col">Failed</th>
              <th scope="col">Credits spent</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((u) => (
              <tr key={u.period}>
                <th scope="row">last {u.period.replace('d', ' days')}</th>
                <td>{u.total_jobs}</td>
                <td>{u.successful_jobs}</td>
                <td>{u.failed_jobs}</td>
                <td>{u.total_spend}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Jobs (successful / failed) and credits spent per period as horizontal bars; the table above carries the same numbers. */
function UsageChart({ rows }: { rows: Usage[] }) {
  const maxJobs = Math.max(1, ...rows.map((r) => r.total_jobs));
  const maxSpend = Math.max(1, ...rows.map((r) => r.total_spend));
  // Two bar columns, each leaving room after its longest bar for the value printed there.
  const span = (CHART.width - CHART.labelWidth) / 2 - CHART.valueRoom;
  const height = rows.length * CHART.rowHeight + 20;
  return (
    <svg className="chart" viewBox={`0 0 ${CHART.width} ${height}`} role="img" aria-label="Jobs and credits spent over 7, 30 and 90 days">
      <text x={CHART.labelWidth} y={12} className="axis">
        jobs (successful / failed)
      </text>
      <text x={CHART.labelWidth + span + 20} y={12} className="axis">
        credits spent
      </text>
      {rows.map((r, i) => {
        const y = 20 + i * CHART.rowHeight;
        const ok = (r.successful_jobs / maxJobs) * span;
        const bad = (r.failed_jobs / maxJobs) * span;
        return (
          <g key={r.period}>
            <text x={0} y={y + CHART.barHeight}>
              {r.period}
            </text>
            <rect x={CHART.labelWidth} y={y} width={ok} height={CHART.barHeight} className="bar-ok" />
            <rect x={CHART.labelWidth + ok} y={y} width={bad} height={CHART.barHeight} className="bar-failed" />
            <text x={CHART.labelWidth + ok + bad + 4} y={y + CHART.barHeight} className="value">
              {r.total_jobs}
            </text>
            <rect
              x={CHART.labelWidth + span + 20}
              y={y}
              width={(r.total_spend / maxSpend) * span}
              height={CHART.barHeight}
              className="bar-spend"
            />
            <text x={CHART.labelWidth + span + 24 + (r.total_spend / maxSpend) * span} y={y + CHART.barHeight} className="value">
              {r.total_spend}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
