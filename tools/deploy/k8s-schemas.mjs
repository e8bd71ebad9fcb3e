// Validates rendered Kubernetes objects against the Kubernetes API schemas (kubernetes-models) and KEDA's
// (@kubernetes-models/keda), offline. An object of a kind neither package knows is an error too: a typo in
// apiVersion or kind must not pass unnoticed.

/** `apps/v1` → module `kubernetes-models/apps/v1`; `v1` → `kubernetes-models/v1`; KEDA's groups from its package. */
function modulePath(apiVersion) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  if (group.endsWith('keda.sh')) return `@kubernetes-models/keda/${group}/${version}`;
  return `kubernetes-models/${group ? `${group}/` : ''}${version}`;
}

const modules = new Map();
async function modelFor(apiVersion, kind) {
  const path = modulePath(apiVersion);
  if (!modules.has(path)) modules.set(path, await import(path).catch(() => undefined));
  return modules.get(path)?.[kind];
}

/** A Secret's base64 `data` as the API server decodes it: line breaks (kustomize wraps long values) are ignored. */
function asDecoded(doc) {
  const copy = structuredClone(doc);
  if (copy.kind === 'Secret' && copy.data)
    for (const k of Object.keys(copy.data)) copy.data[k] = String(copy.data[k]).replace(/[\r\n]/g, '');
  return copy;
}

/** Schema errors of `docs`, one line each (`<Kind>/<name>: <what>`). */
export async function schemaErrors(docs) {
  const errors = [];
  for (const doc of docs) {
    const where = `${doc.kind}/${doc.metadata?.name ?? '?'}`;
    const Model = doc.apiVersion && doc.kind ? await modelFor(doc.apiVersion, doc.kind) : undefined;
    if (!Model) {
      errors.push(`${where}: unknown apiVersion/kind ${doc.apiVersion} ${doc.kind} (not in the Kubernetes or KEDA schemas)`);
      continue;
    }
    try {
      new Model(asDecoded(doc)).validate();
    } catch (err) {
      const details = (err.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
      errors.push(`${where}: does not match the ${doc.apiVersion} ${doc.kind} schema: ${details || err.message}`);
    }
  }
  return errors;
}
