import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, errorText, type Credentials } from './api.js';

const DATA_TYPES = ['string', 'number', 'date', 'currency', 'boolean', 'table'];

interface TemplateField {
  key: string;
  label?: string;
  data_type: string;
  required?: boolean;
  validation?: Record<string, unknown>;
}
interface Template {
  id: string;
  name: string;
  category: string;
  status: 'draft' | 'active' | 'archived';
  version: number;
  updated_at: string;
  schema_definition: { fields: TemplateField[] };
}

/** The account's templates: fields and their types and rules, version, clone, archive (and back), add a field. */
export function Templates({ creds }: { creds: Credentials }) {
  const [archived, setArchived] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);
  const list = useQuery({
    queryKey: ['templates', archived],
    queryFn: () => call<Template[]>(creds, 'GET', `/templates?limit=100&include_archived=${archived}`),
  });
  const template = list.data?.find((t) => t.id === selected);
  return (
    <section aria-label="Templates">
      <h2>Templates</h2>
      <label className="filters">
        <input type="checkbox" checked={archived} onChange={(e) => setArchived(e.target.checked)} /> Show archived
      </label>
      {list.error && <p role="alert">{errorText(list.error)}</p>}
      <div className="table-scroll">
        <table className="list">
          <caption className="sr-only">Templates</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Category</th>
              <th scope="col">Status</th>
              <th scope="col">Version</th>
              <th scope="col">Fields</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.map((t) => (
              <tr key={t.id} className={t.id === selected ? 'selected' : ''}>
                <td>
                  <button type="button" className="link" aria-pressed={t.id === selected} onClick={() => setSelected(t.id)}>
                    {t.name}
                  </button>
                </td>
                <td>{t.category}</td>
                <td>{t.status}</td>
                <td>v{t.version}</td>
                <td>{t.schema_definition.fields.length}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {list.data?.length === 0 && <p>No templates yet: create one with POST /templates or clone the built-in ones.</p>}
      {template && (
        <TemplateDetail
          key={`${template.id}:${template.version}:${template.status}`}
          creds={creds}
          template={template}
          onCloned={setSelected}
        />
      )}
    </section>
  );
}

function TemplateDetail({ creds, template, onCloned }: { creds: Credentials; template: Template; onCloned(id: string): void }) {
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: ['templates'] });
  const [cloneName, setCloneName] = useState(`${template.name} (clone)`);
  const [field, setField] = useState({ key: '', label: '', data_type: 'string' });
  const clone = useMutation({
    mutationFn: () => call<Template>(creds, 'POST', `/templates/${template.id}/clone`, { new_name: cloneName }),
    onSuccess: (t) => {
      refresh();
      onCloned(t.id);
    },
  });
  const setStatus = useMutation({
    mutationFn: (status: Template['status']) => call<Template>(creds, 'PUT', `/templates/${template.id}`, { status }),
    onSuccess: refresh,
  });
  const addField = useMutation({
    mutationFn: () => call<Template>(creds, 'PATCH', `/templates/${template.id}/schema`, { add_fields: [field] }),
    onSuccess: refresh,
  });
  const error = clone.error ?? setStatus.error ?? addField.error;
  return (
    <section className="panel" aria-label={`Template ${template.name}`}>
      <h3>
        {template.name} <span className="badge">{template.status}</span> <span className="badge">version {template.version}</span>
      </h3>
      <p className="hint">
        <code>{template.id}</code> · updated {new Date(template.updated_at).toLocaleString()} · each schema change makes a new version; jobs
        keep the version they ran with.
      </p>
      <div className="table-scroll">
        <table>
          <caption className="sr-only">Fields of {template.name}</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Label</th>
              <th scope="col">Type</th>
              <th scope="col">Required</th>
              <th scope="col">Validation</th>
            </tr>
          </thead>
          <tbody>
            {template.schema_definition.fields.map((f) => (
              <tr key={f.key}>
                <td>
                  <code>{f.key}</code>
                </td>
                <td>{f.label ?? ''}</td>
                <td>{f.data_type}</td>
                <td>{f.required ? 'yes' : 'no'}</td>
                <td>{f.validation ? <code>{JSON.stringify(f.validation)}</code> : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <form
        className="inline-form"
        aria-label="Add a field"
        onSubmit={(e) => {
          e.preventDefault();
          addField.mutate();
        }}
      >
        <label>
          Field key
          <input
            name="field-key"
            value={field.key}
            pattern="[a-z][a-z0-9_]*"
            required
            onChange={(e) => setField({ ...field, key: e.target.value })}
          />
        </label>
        <label>
          Field label
          <input name="field-label" value={field.label} required onChange={(e) => setField({ ...field, label: e.target.value })} />
        </label>
        <label>
          Field type
          <select name="field-type" value={field.data_type} onChange={(e) => setField({ ...field, data_type: e.target.value })}>
            {DATA_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={addField.isPending}>
          Add field (new version)
        </button>
      </form>
      <div className="actions">
        <label>
          Clone as
          <input name="clone-name" value={cloneName} minLength={3} onChange={(e) => setCloneName(e.target.value)} />
        </label>
        <button type="button" onClick={() => clone.mutate()} disabled={clone.isPending}>
          Clone
        </button>
        {template.status === 'archived' ? (
          <button type="button" onClick={() => setStatus.mutate('active')}>
            Unarchive
          </button>
        ) : (
          <button type="button" onClick={() => setStatus.mutate(template.status === 'draft' ? 'active' : 'archived')}>
            {template.status === 'draft' ? 'Activate' : 'Archive'}
          </button>
        )}
      </div>
      {error && <p role="alert">{errorText(error)}</p>}
    </section>
  );
}
