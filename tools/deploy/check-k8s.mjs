#!/usr/bin/env node
// Validates the Kubernetes manifests in k8s/ (STYLE rule 15: "CI renders every overlay and validates it").
//
//   node tools/deploy/check-k8s.mjs               render base and every overlay with kubectl and check them
//   node tools/deploy/check-k8s.mjs --root <dir>  check another k8s tree (used to prove the checks fail)
//   KUBECTL=/path/to/kubectl                      pick the binary
//
// `kubectl kustomize` renders k8s/base and every k8s/overlays/<env> offline; every rendered object is
// validated against the Kubernetes API schemas (kubernetes-models, and KEDA's for the ScaledObject), and
// every Docket Deployment against our rules: its resolved environment (ConfigMaps), probes, the migrate init
// container, ServiceAccount, Services, Ingress, autoscalers, PodDisruptionBudgets. Without kubectl it fails
// (exit 2): the overlays cannot be checked without rendering them. Exit 0 = clean, 1 = violations.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { schemaErrors } from './k8s-schemas.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const rootArg = args.indexOf('--root');
const K8S = rootArg >= 0 ? resolve(args[rootArg + 1]) : join(ROOT, 'k8s');
/** KUBECTL=<path> picks the binary; KUBECTL=none forces the file-only check. */
const KUBECTL = process.env.KUBECTL ?? 'kubectl';

/** What each service must look like (README "Configuration", ARCHITECTURE §7). */
const SERVICES = {
  gateway: { port: 3000, live: '/livez', ready: '/readyz', db: true, s3: false },
  artifact: { port: 3101, live: '/livez', ready: '/readyz', db: true, s3: true, publicS3: true },
  template: { port: 3102, live: '/livez', ready: '/readyz', db: true, s3: false },
  billing: { port: 3103, live: '/livez', ready: '/readyz', db: true, s3: false },
  // The worker holds no storage credentials: artifact hands it presigned URLs for each job's own objects.
  'extraction-worker': { port: 3104, live: '/livez', ready: '/readyz', db: false, s3: false },
  'webhook-dispatcher': { port: 3105, live: '/livez', ready: '/readyz', db: true, s3: false, webhookKey: true },
};
const WORKER = 'extraction-worker';
/** The bucket-wide storage credentials and their Secret: only services with `s3: true` may have them. */
const S3_CREDENTIALS = ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'];
const S3_SECRET = 'docket-s3';
const SECRETISH = /(SECRET|PASSWORD|TOKEN|DATABASE_URL|ACCESS_KEY)/;

// ---------------------------------------------------------------------------------------------------
function parseDocs(text, source) {
  const out = [];
  for (const doc of YAML.parseAllDocuments(text)) {
    if (doc.errors?.length) throw new Error(`${source}: ${doc.errors[0].message}`);
    const obj = doc.toJSON();
    if (obj && typeof obj === 'object') out.push(obj);
  }
  return out;
}

function kubectlAvailable() {
  const r = spawnSync(KUBECTL, ['version', '--client'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.split('\n').filter(Boolean).join(', ') : undefined;
}

function render(dir) {
  const r = spawnSync(KUBECTL, ['kustomize', dir], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`kubectl kustomize ${relative(ROOT, dir)} failed:\n${r.stderr.trim()}`);
  return parseDocs(r.stdout, relative(ROOT, dir));
}

function subdirs(dir) {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((d) => statSync(join(dir, d)).isDirectory())
        .sort()
    : [];
}

/** CPU in millicores, memory in bytes. */
function quantity(v, kind) {
  const s = String(v ?? '').trim();
  const m = /^([0-9.]+)([a-zA-Z]*)$/.exec(s);
  if (!m) return NaN;
  const n = Number(m[1]);
  if (kind === 'cpu') return m[2] === 'm' ? n : m[2] === '' ? n * 1000 : NaN;
  const units = { '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 };
  return m[2] in units ? n * units[m[2]] : NaN;
}

/**
 * The worker's sizing (docs/performance.md, "Worker sizing"): every slot's ONNX threads within the CPU limit, and a
 * memory limit with headroom over the peak RSS of the engine's process tree measured at its WORKER_CONCURRENCY
 * (`npm run bench:concurrency -- --ocr-docs 20 --a4-pages 1`, the highest of its phases), in MiB. Concurrencies not
 * measured are extrapolated from the last two.
 */
const WORKER_MEASURED_PEAK_MIB = { 1: 1218, 2: 1875, 4: 3174 };
/** The memory limit must be at least this many times the measured peak (docs/performance.md says why). */
const WORKER_MEMORY_HEADROOM = 1.5;

function workerPeakMib(concurrency) {
  if (WORKER_MEASURED_PEAK_MIB[concurrency]) return WORKER_MEASURED_PEAK_MIB[concurrency];
  const [[c1, p1], [c2, p2]] = Object.entries(WORKER_MEASURED_PEAK_MIB)
    .map(([c, p]) => [Number(c), p])
    .slice(-2);
  return p2 + ((p2 - p1) / (c2 - c1)) * (concurrency - c2);
}

/** Violations of the worker's sizing rules, given its resolved environment and its container's resources. */
function workerSizing(env, resources) {
  const out = [];
  const concurrency = Number(env.WORKER_CONCURRENCY ?? 1);
  const threads = Number(env.OCR_THREADS);
  const cpuCores = quantity(resources.limits?.cpu, 'cpu') / 1000;
  const memoryMib = quantity(resources.limits?.memory, 'memory') / 1024 ** 2;
  // Unset, OCR_THREADS is the node's cores ÷ WORKER_CONCURRENCY: the node's, not the pod's CPU limit.
  if (!(threads >= 1)) out.push("OCR_THREADS must be set (its default counts the node's cores, not the CPU limit)");
  else if (threads * concurrency > Math.max(1, Math.floor(cpuCores)))
    out.push(`OCR_THREADS × WORKER_CONCURRENCY (${threads} × ${concurrency}) exceeds the CPU limit (${cpuCores} cores)`);
  const needed = Math.ceil(WORKER_MEMORY_HEADROOM * workerPeakMib(concurrency));
  if (!(memoryMib >= needed))
    out.push(
      `memory limit ${Math.round(memoryMib)} MiB is under ${WORKER_MEMORY_HEADROOM} × the measured peak at WORKER_CONCURRENCY=${concurrency} (${needed} MiB)`,
    );
  return out;
}

// ---------------------------------------------------------------------------------------------------
/**
 * @param {string} target  label for messages (e.g. "overlays/prod")
 * @param {object[]} docs  Kubernetes objects
 * @param {{ rendered: boolean, prod: boolean, base: boolean }} mode
 */
function check(target, docs, mode) {
  const errors = [];
  const notes = [];
  const fail = (obj, msg) => errors.push(`${target} ${obj}: ${msg}`);
  const byKind = (k) => docs.filter((d) => d.kind === k);
  const configMaps = new Map(byKind('ConfigMap').map((c) => [c.metadata?.name, c.data ?? {}]));
  const secrets = new Set(byKind('Secret').map((s) => s.metadata?.name));
  const isDocket = (d) => !mode.rendered || d.metadata?.labels?.['app.kubernetes.io/part-of'] === 'docket';
  const deployments = byKind('Deployment').filter(isDocket);
  const externalSecrets = new Set();
  const requests = {};

  for (const name of Object.keys(SERVICES)) {
    if (!deployments.some((d) => d.metadata?.name === name)) fail(`Deployment/${name}`, 'missing');
  }

  for (const dep of deployments) {
    const name = dep.metadata?.name;
    const where = `Deployment/${name}`;
    const exp = SERVICES[name];
    if (!exp) {
      fail(where, 'not a known Docket service (labelled app.kubernetes.io/part-of=docket)');
      continue;
    }
    const pod = dep.spec?.template?.spec ?? {};
    const podSc = pod.securityContext ?? {};
    const containers = pod.containers ?? [];
    if (containers.length !== 1) fail(where, `expected exactly one container, found ${containers.length}`);
    if (pod.automountServiceAccountToken !== false)
      fail(where, 'automountServiceAccountToken must be false (the services never call the Kubernetes API)');
    if (pod.hostNetwork || pod.hostPID || pod.hostIPC) fail(where, 'must not use host namespaces');
    const podLabels = dep.spec?.template?.metadata?.labels ?? {};
    const sel = dep.spec?.selector?.matchLabels ?? {};
    if (!Object.keys(sel).length || Object.entries(sel).some(([k, v]) => podLabels[k] !== v))
      fail(where, 'selector does not match the pod template labels');
    if (mode.prod && !(Number(dep.spec?.replicas) >= 2)) fail(where, `prod needs replicas >= 2 (found ${dep.spec?.replicas})`);

    for (const c of containers) {
      const cw = `${where} container ${c.name}`;
      const sc = c.securityContext ?? {};
      const nonRoot = sc.runAsNonRoot ?? podSc.runAsNonRoot;
      const uid = sc.runAsUser ?? podSc.runAsUser;
      if (nonRoot !== true) fail(cw, 'runAsNonRoot must be true');
      if (uid === 0) fail(cw, 'runAsUser must not be 0');
      if (sc.allowPrivilegeEscalation !== false) fail(cw, 'allowPrivilegeEscalation must be false');
      if (sc.readOnlyRootFilesystem !== true) fail(cw, 'readOnlyRootFilesystem must be true');
      if (sc.privileged) fail(cw, 'must not be privileged');
      if (!(sc.capabilities?.drop ?? []).includes('ALL')) fail(cw, 'capabilities.drop must include ALL');
      if ((sc.capabilities?.add ?? []).length) fail(cw, `must not add capabilities (${sc.capabilities.add.join(', ')})`);
      const seccomp = sc.seccompProfile?.type ?? podSc.seccompProfile?.type;
      if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost')
        fail(cw, `seccompProfile must be RuntimeDefault (found ${seccomp ?? 'none'})`);

      // Writable /tmp on an emptyDir (the extraction engine and tesseract write temp files there).
      const tmp = (c.volumeMounts ?? []).find((m) => m.mountPath === '/tmp');
      const vol = tmp && (pod.volumes ?? []).find((v) => v.name === tmp.name);
      if (!vol?.emptyDir) fail(cw, '/tmp must be mounted from an emptyDir volume (the root filesystem is read-only)');

      // Image: tagged or pinned; never "latest"; prod never uses the dev tag.
      const image = String(c.image ?? '');
      const lastSegment = image.split('/').pop() ?? '';
      const tag = image.includes('@') ? '@digest' : lastSegment.includes(':') ? lastSegment.split(':').pop() : undefined;
      if (!image) fail(cw, 'image is empty');
      else if (tag === 'latest') fail(cw, `image ${image} uses the "latest" tag`);
      else if (mode.prod && !tag) fail(cw, `image ${image} has no tag (prod must pin a version)`);
      else if (mode.prod && tag === 'dev') fail(cw, `image ${image} uses the development tag`);
      else if (!tag && !mode.base) fail(cw, `image ${image} has no tag (overlays must set one)`);

      // Probes.
      const ports = c.ports ?? [];
      const httpPort = ports.find((p) => p.containerPort === exp.port);
      if (!httpPort) fail(cw, `must expose containerPort ${exp.port}`);
      const probePort = (p) => {
        const port = p?.httpGet?.port;
        return typeof port === 'string' ? ports.find((x) => x.name === port)?.containerPort : Number(port);
      };
      for (const [kind, path] of [
        ['livenessProbe', exp.live],
        ['readinessProbe', exp.ready],
      ]) {
        const p = c[kind];
        if (!p?.httpGet) fail(cw, `${kind} must be an httpGet probe on ${path}`);
        else {
          if (p.httpGet.path !== path) fail(cw, `${kind} path is ${p.httpGet.path}, expected ${path}`);
          if (probePort(p) !== exp.port) fail(cw, `${kind} must target port ${exp.port}`);
        }
      }
      if (c.startupProbe?.httpGet && probePort(c.startupProbe) !== exp.port) fail(cw, `startupProbe must target port ${exp.port}`);

      // Resources.
      const res = c.resources ?? {};
      for (const k of ['cpu', 'memory']) {
        const rq = quantity(res.requests?.[k], k);
        const lm = quantity(res.limits?.[k], k);
        if (!Number.isFinite(rq)) fail(cw, `resources.requests.${k} missing or invalid (${res.requests?.[k]})`);
        if (!Number.isFinite(lm)) fail(cw, `resources.limits.${k} missing or invalid (${res.limits?.[k]})`);
        if (Number.isFinite(rq) && Number.isFinite(lm) && rq > lm) fail(cw, `resources.requests.${k} exceeds the limit`);
      }
      requests[name] = { cpu: quantity(res.requests?.cpu, 'cpu'), memory: quantity(res.requests?.memory, 'memory') };

      // Credentials only from Secrets.
      const env = c.env ?? [];
      for (const e of env) {
        if (SECRETISH.test(e.name) && e.value !== undefined)
          fail(cw, `${e.name} must come from a Secret (valueFrom.secretKeyRef), not a literal`);
        if (e.valueFrom?.secretKeyRef?.name) externalSecrets.add(e.valueFrom.secretKeyRef.name);
      }
      const fromSecret = (n) => env.some((e) => e.name === n && e.valueFrom?.secretKeyRef?.name && e.valueFrom.secretKeyRef.key);
      const wants = [
        ...(exp.db ? ['DATABASE_URL'] : []),
        ...(exp.s3 ? ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] : []),
        ...(exp.webhookKey ? ['WEBHOOK_SECRET_KEY'] : []),
      ];
      for (const n of wants) if (!fromSecret(n)) fail(cw, `${n} must be set from a Secret (secretKeyRef)`);
      if (!exp.s3) {
        const storageSecrets = env.filter((e) => S3_CREDENTIALS.includes(e.name) || e.valueFrom?.secretKeyRef?.name === S3_SECRET);
        for (const e of storageSecrets) fail(cw, `${e.name} must not be set: this service holds no storage credentials`);
        if ((c.envFrom ?? []).some((ef) => ef.secretRef?.name === S3_SECRET)) fail(cw, `envFrom must not reference Secret ${S3_SECRET}`);
      }
      // Least privilege (ADR 0009-nats-and-postgres-least-privilege): its own NATS user, its DML-only database role.
      if (!fromSecret('NATS_PASSWORD')) fail(cw, 'NATS_PASSWORD must be set from a Secret (its own NATS user)');
      if (env.find((e) => e.name === 'NATS_USER')?.value !== name) fail(cw, `NATS_USER must be "${name}"`);
      for (const n of ['MIGRATION_DATABASE_URL', 'DATABASE_ADMIN_URL'])
        if (env.some((e) => e.name === n)) fail(cw, `${n} belongs to the migrate init container or the roles Job, never to the service`);
      if (exp.db && env.find((e) => e.name === 'DB_MIGRATE')?.value !== 'skip')
        fail(cw, 'DB_MIGRATE must be skip (migrations run in the init container as the schema owner)');

      // Resolved configuration (only when ConfigMap generators are rendered).
      if (mode.rendered) {
        const resolved = {};
        for (const ef of c.envFrom ?? []) {
          const cmName = ef.configMapRef?.name;
          if (cmName) {
            if (!configMaps.has(cmName)) fail(cw, `envFrom references ConfigMap ${cmName}, which is not in the rendered output`);
            else Object.assign(resolved, configMaps.get(cmName));
          }
          if (ef.secretRef?.name) externalSecrets.add(ef.secretRef.name);
        }
        for (const e of env) if (e.value !== undefined) resolved[e.name] = e.value;
        if (resolved.HOST !== '0.0.0.0')
          fail(cw, `HOST must be 0.0.0.0 in a pod (found ${resolved.HOST ?? 'unset → 127.0.0.1'}; probes would fail)`);
        if (Number(resolved.PORT) !== exp.port) fail(cw, `PORT must be ${exp.port} (found ${resolved.PORT ?? 'unset'})`);
        if (!resolved.NATS_URL) fail(cw, 'NATS_URL is not set');
        if (exp.s3 && !resolved.S3_ENDPOINT) fail(cw, 'S3_ENDPOINT is not set');
        if (exp.publicS3 && !resolved.S3_PUBLIC_ENDPOINT)
          fail(cw, 'S3_PUBLIC_ENDPOINT is not set (presigned URLs would name the in-cluster endpoint)');
        if (mode.prod && resolved.NODE_ENV !== 'production') fail(cw, `NODE_ENV must be production in prod (found ${resolved.NODE_ENV})`);
        if (mode.prod && name === 'gateway' && resolved.DOCKET_ENVIRONMENT !== 'production')
          fail(cw, 'DOCKET_ENVIRONMENT must be production in prod');
        if (name === WORKER) for (const e of workerSizing(resolved, res)) fail(cw, e);
      }
    }
  }

  // Migrations before serving, with no hand step: an init container per service with a schema, as its owner role.
  for (const [name, exp] of Object.entries(SERVICES)) {
    const pod = deployments.find((d) => d.metadata?.name === name)?.spec?.template?.spec;
    if (!pod) continue;
    const init = (pod.initContainers ?? []).find((c) => c.name === 'migrate');
    if (!exp.db) {
      if (init) fail(`Deployment/${name}`, 'has no schema, so no migrate init container');
      continue;
    }
    if (!init) fail(`Deployment/${name}`, 'needs an init container "migrate" (migrations run before the service serves)');
    else {
      if (!(init.command ?? []).join(' ').includes(`apps/${name}/dist/migrate.js`))
        fail(`Deployment/${name}`, `init container "migrate" must run apps/${name}/dist/migrate.js`);
      if (init.image !== pod.containers?.[0]?.image)
        fail(`Deployment/${name}`, 'init container "migrate" must use the service image (same version)');
      if (!(init.env ?? []).some((e) => e.name === 'MIGRATION_DATABASE_URL' && e.valueFrom?.secretKeyRef?.name))
        fail(`Deployment/${name}`, 'init container "migrate": MIGRATION_DATABASE_URL must come from a Secret');
      for (const e of init.env ?? []) if (e.valueFrom?.secretKeyRef?.name) externalSecrets.add(e.valueFrom.secretKeyRef.name);
    }
  }
  // Each service runs as its own ServiceAccount, without an API token.
  if (mode.rendered) {
    const accounts = byKind('ServiceAccount');
    for (const name of Object.keys(SERVICES)) {
      const pod = deployments.find((d) => d.metadata?.name === name)?.spec?.template?.spec;
      if (!pod) continue;
      if (pod.serviceAccountName !== name) fail(`Deployment/${name}`, `serviceAccountName must be "${name}"`);
      const sa = accounts.find((a) => a.metadata?.name === name);
      if (!sa) fail(`ServiceAccount/${name}`, 'missing');
      else if (sa.automountServiceAccountToken !== false) fail(`ServiceAccount/${name}`, 'automountServiceAccountToken must be false');
    }
    // The public edge: an Ingress to the gateway, with TLS from a Secret.
    const ingress = byKind('Ingress').find((i) => i.metadata?.name === 'gateway');
    if (!ingress) fail('Ingress/gateway', 'missing');
    else {
      if (!(ingress.spec?.tls ?? []).some((t) => t.secretName)) fail('Ingress/gateway', 'must terminate TLS with a certificate Secret');
      const backends = (ingress.spec?.rules ?? []).flatMap((r) => r.http?.paths ?? []).map((p) => p.backend?.service?.name);
      if (!backends.length || backends.some((b) => b !== 'gateway')) fail('Ingress/gateway', 'must route to the gateway Service only');
      for (const t of ingress.spec?.tls ?? []) if (t.secretName) externalSecrets.add(t.secretName);
    }
    if (mode.prod && !byKind('HorizontalPodAutoscaler').some((h) => h.spec?.scaleTargetRef?.name === 'gateway'))
      fail('HorizontalPodAutoscaler/gateway', 'prod must autoscale the gateway (components/gateway-autoscaling)');
  }
  const jobs = byKind('Job');
  for (const job of jobs) {
    for (const e of job.spec?.template?.spec?.containers?.flatMap((c) => c.env ?? []) ?? []) {
      if (SECRETISH.test(e.name) && e.value !== undefined) fail(`Job/${job.metadata?.name}`, `${e.name} must come from a Secret`);
      if (e.valueFrom?.secretKeyRef?.name) externalSecrets.add(e.valueFrom.secretKeyRef.name);
    }
  }

  // ConfigMaps never carry credentials.
  for (const [cmName, data] of configMaps) {
    for (const k of Object.keys(data)) if (SECRETISH.test(k)) fail(`ConfigMap/${cmName}`, `${k} looks like a credential; use a Secret`);
  }

  // The worker is the heavy one.
  const w = requests[WORKER];
  if (w && Number.isFinite(w.cpu) && Number.isFinite(w.memory)) {
    for (const [svc, r] of Object.entries(requests)) {
      if (svc === WORKER) continue;
      if (!(w.cpu > r.cpu)) fail(`Deployment/${WORKER}`, `must request more CPU than ${svc}`);
      if (!(w.memory > r.memory)) fail(`Deployment/${WORKER}`, `must request more memory than ${svc}`);
    }
  }

  // Services route to their Deployments.
  const services = byKind('Service');
  for (const [name, exp] of Object.entries(SERVICES)) {
    const svc = services.find((s) => s.metadata?.name === name);
    const dep = deployments.find((d) => d.metadata?.name === name);
    if (!svc) {
      fail(`Service/${name}`, 'missing');
      continue;
    }
    const labels = dep?.spec?.template?.metadata?.labels ?? {};
    const sel = svc.spec?.selector ?? {};
    if (!Object.keys(sel).length || Object.entries(sel).some(([k, v]) => labels[k] !== v))
      fail(`Service/${name}`, 'selector does not match the Deployment pods');
    if (!(svc.spec?.ports ?? []).some((p) => p.port === exp.port)) fail(`Service/${name}`, `must expose port ${exp.port}`);
    if (svc.spec?.type && svc.spec.type !== 'ClusterIP')
      fail(`Service/${name}`, `type ${svc.spec.type}: expose the gateway through an Ingress/Gateway, not the Service`);
  }

  if (mode.rendered) {
    // Autoscaling: KEDA on the JOBS stream's worker consumer.
    const scaled = byKind('ScaledObject');
    for (const so of scaled) {
      const t = so.spec?.scaleTargetRef?.name;
      if (!deployments.some((d) => d.metadata?.name === t)) fail(`ScaledObject/${so.metadata?.name}`, `targets unknown Deployment ${t}`);
      const trig = (so.spec?.triggers ?? []).find((x) => x.type === 'nats-jetstream');
      if (!trig) fail(`ScaledObject/${so.metadata?.name}`, 'needs a nats-jetstream trigger');
      else {
        if (trig.metadata?.stream !== 'JOBS')
          fail(`ScaledObject/${so.metadata?.name}`, `stream must be JOBS (found ${trig.metadata?.stream})`);
        if (trig.metadata?.consumer !== 'extraction-worker')
          fail(`ScaledObject/${so.metadata?.name}`, `consumer must be extraction-worker (found ${trig.metadata?.consumer})`);
        if (!trig.metadata?.natsServerMonitoringEndpoint) fail(`ScaledObject/${so.metadata?.name}`, 'natsServerMonitoringEndpoint missing');
      }
      if (!(Number(so.spec?.minReplicaCount) >= 1))
        fail(`ScaledObject/${so.metadata?.name}`, 'minReplicaCount must be >= 1 (queued jobs would wait for a cold start)');
    }
    for (const pdb of byKind('PodDisruptionBudget')) {
      const sel = pdb.spec?.selector?.matchLabels ?? {};
      const hit = deployments.some((d) => Object.entries(sel).every(([k, v]) => d.spec?.template?.metadata?.labels?.[k] === v));
      if (!hit) fail(`PodDisruptionBudget/${pdb.metadata?.name}`, 'selects no Docket Deployment');
    }
    if (mode.prod) {
      if (!scaled.some((s) => s.spec?.scaleTargetRef?.name === WORKER))
        fail('ScaledObject', 'prod must autoscale the extraction-worker (components/worker-autoscaling)');
      for (const name of Object.keys(SERVICES)) {
        if (!byKind('PodDisruptionBudget').some((p) => p.spec?.selector?.matchLabels?.['app.kubernetes.io/name'] === name))
          fail(`PodDisruptionBudget/${name}`, 'missing in prod (components/pod-disruption-budgets)');
      }
      if (!byKind('NetworkPolicy').length) fail('NetworkPolicy', 'prod must include components/network-policies');
      if (secrets.size) fail('Secret', `prod must not render Secrets from the repository (found ${[...secrets].join(', ')})`);
      const ns = byKind('Namespace')[0];
      if (ns && ns.metadata?.labels?.['pod-security.kubernetes.io/enforce'] !== 'restricted')
        fail(`Namespace/${ns.metadata?.name}`, 'prod namespace must enforce the restricted Pod Security Standard');
    }
    const missing = [...externalSecrets].filter((s) => !secrets.has(s));
    if (missing.length) notes.push(`${target}: Secrets expected to exist in the cluster: ${missing.sort().join(', ')}`);
  }

  return { errors, notes, count: docs.length, deployments: deployments.length };
}

// ---------------------------------------------------------------------------------------------------
const results = [];
let fatal = false;
const kubectl = kubectlAvailable();
if (kubectl) {
  console.log(`check-k8s: rendering with kubectl kustomize (${kubectl})`);
  const targets = [['base', join(K8S, 'base')], ...subdirs(join(K8S, 'overlays')).map((o) => [`overlays/${o}`, join(K8S, 'overlays', o)])];
  if (!subdirs(join(K8S, 'overlays')).length) {
    console.error('check-k8s: no overlays found under k8s/overlays');
    fatal = true;
  }
  for (const [label, dir] of targets) {
    try {
      const docs = render(dir);
      const r = check(label, docs, { rendered: true, prod: label === 'overlays/prod', base: label === 'base' });
      // Every rendered object against the Kubernetes API schemas (and KEDA's), as an API server would.
      r.errors.push(...(await schemaErrors(docs)).map((e) => `${label} ${e}`));
      results.push([label, r]);
    } catch (err) {
      results.push([label, { errors: [err.message], notes: [], count: 0, deployments: 0 }]);
    }
  }
} else {
  // Without kubectl the overlays, generators and components cannot be rendered: that is a failure, not a pass.
  console.error(
    `check-k8s: kubectl (${KUBECTL}) not found: install it (Debian: apt-get install kubectl; .ci/run does) to render and check the manifests`,
  );
  process.exit(2);
}

let failures = 0;
for (const [label, r] of results) {
  failures += r.errors.length;
  console.log(
    `${r.errors.length ? '✗' : '✓'} ${label}: ${r.count} objects, ${r.deployments} Docket Deployments${r.errors.length ? `, ${r.errors.length} violation(s)` : ''}`,
  );
  for (const e of r.errors) console.log(`    ✗ ${e}`);
  for (const n of r.notes) console.log(`    · ${n}`);
}
if (failures || fatal) {
  console.log(`check-k8s: FAILED (${failures} violation(s))`);
  process.exit(1);
}
console.log('check-k8s: OK');
