import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, errorText, type Credentials, type Page } from './api.js';

const PAGE_SIZE = 20;

interface Exemplar {
  id: string;
  job_id: string;
  template_id: string | null;
  source: 'correction' | 'approval';
  fields: string[];
  created_at: string;
}

/** Layout memory (ADR 0014): the exemplars learned from corrections and approvals, delete one, turn memory on or off. */
export function Exemplars({ creds }: { creds: Credentials }) {
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const settings = useQuery({
    queryKey: ['memory', 'settings'],
    queryFn: () => call<{ enabled: boolean }>(creds, 'GET', '/memory/settings'),
  });
  const list = useQuery({
    queryKey: ['memory', 'exemplars', page],
    queryFn: () => call<Page<Exemplar>>(creds, 'GET', `/memory/exemplars?page=${page}&size=${PAGE_SIZE}`),
  });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => call<{ enabled: boolean }>(creds, 'PUT', '/memory/settings', { enabled }),
    onSuccess: (s) => qc.setQueryData(['memory', 'settings'], s),
  });
  const remove = useMutation({
    mutationFn: (id: string) => call(creds, 'DELETE', `/memory/exemplars/${id}`),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['memory', 'exemplars'] }),
  });
  const pages = list.data?.pages ?? 1;
  return (
    <section aria-label="Layout memory">
      <h2>Layout memory</h2>
      <p className="hint">
        Each corrected or approved result teaches where this layout prints each value; the next document of the same layout is read there.
        Never shared across accounts. Only digests of labels are kept, no document text.
      </p>
      {settings.data && (
        <label className="check">
          <input
            type="checkbox"
            name="memory-enabled"
            checked={settings.data.enabled}
            disabled={toggle.isPending}
            onChange={(e) => toggle.mutate(e.target.checked)}
          />{' '}
          Learn from corrections and use what was learned (memory on)
        </label>
      )}
      {(list.error ?? toggle.error ?? remove.error) && <p role="alert">{errorText(list.error ?? toggle.error ?? remove.error)}</p>}
      <h3>Exemplars ({list.data?.total ?? 0})</h3>
      {list.data?.items.length === 0 && <p>Nothing learned yet: correct or approve a result in Review.</p>}
      {!!list.data?.items.length && (
        <div className="table-scroll">
          <table>
            <caption className="sr-only">Layout exemplars, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Learned</th>
                <th scope="col">From</th>
                <th scope="col">Job</th>
                <th scope="col">Fields remembered</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((x) => (
                <tr key={x.id}>
                  <td>{new Date(x.created_at).toLocaleString()}</td>
                  <td>{x.source}</td>
                  <td>
                    <code>{x.job_id}</code>
                  </td>
                  <td>{x.fields.join(', ')}</td>
                  <td>
                    <button type="button" onClick={() => remove.mutate(x.id)} aria-label={`Forget exemplar ${x.id}`}>
                      Forget
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav aria-label="Exemplar pages" className="pager">
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
    </section>
  );
}
