/**
 * Every NATS subject Docket uses. Versioned: an incompatible payload change is a new subject
 * (`…v2…`), never an edit. Code never spells a subject inline; it imports it from here.
 */
export const Subjects = {
  artifact: {
    createExtraction: 'artifact.v1.extract.create',
    confirmUpload: 'artifact.v1.artifact.confirm-upload',
    getJob: 'artifact.v1.job.get',
    jobStarted: 'artifact.v1.job.started',
    jobOutcome: 'artifact.v1.job.outcome',
    /** Asked by the worker at each delivery: presigned URLs for that job's own objects (it holds no storage credentials). */
    jobStorage: 'artifact.v1.job.storage',
    /** Worker → artifact, before any page is read: the document's real page count re-sizes the job's hold (ADR 0005). */
    jobPages: 'artifact.v1.job.pages',
    /** Asked by `billing`'s reconciliation sweep about a job whose hold is still open (ADR 0008). */
    jobSettlement: 'artifact.v1.job.settlement',
    list: 'artifact.v1.artifact.list',
    get: 'artifact.v1.artifact.get',
    getStatus: 'artifact.v1.artifact.status',
    update: 'artifact.v1.artifact.update',
    delete: 'artifact.v1.artifact.delete',
    download: 'artifact.v1.artifact.download',
    rerun: 'artifact.v1.artifact.rerun',
    cancel: 'artifact.v1.artifact.cancel',
    /** Asked by `template` before a hard delete. */
    templateInUse: 'artifact.v1.template.in-use',
    /** `POST /batch` and `POST /artifacts/request-batch-upload` (same body and reply). */
    createBatch: 'artifact.v1.batch.create',
    confirmBatch: 'artifact.v1.batch.confirm-upload',
    /** Pipelines (legacy, spec §2.5/§4.7); the account's default pipeline is created on first use. */
    listPipelines: 'artifact.v1.pipeline.list',
    /** Operator-only (no HTTP route in the spec): set a pipeline's name, template, webhook or is_active. */
    updatePipeline: 'artifact.v1.pipeline.update',
    createPipelineJob: 'artifact.v1.pipeline.async',
    /** Review workflow (spec extension): the review queue, corrections as new result versions, approval. */
    reviewList: 'artifact.v1.review.list',
    correctJob: 'artifact.v1.job.correct',
    approveJob: 'artifact.v1.job.approve',
    jobResults: 'artifact.v1.job.results',
    /** Layout memory (ADR 0014): the account's exemplars, listed and deleted through the API, and its on/off setting. */
    listExemplars: 'artifact.v1.memory.list',
    deleteExemplar: 'artifact.v1.memory.delete',
    getMemorySettings: 'artifact.v1.memory.settings-get',
    setMemorySettings: 'artifact.v1.memory.settings-set',
    /** Worker → artifact: the exemplars a job may use (none when its account's memory is off). */
    jobExemplars: 'artifact.v1.memory.for-job',
    /** Worker → artifact: a presigned GET of a confirmed job's source, to learn its layout from. */
    learnSource: 'artifact.v1.memory.source',
    /** Worker → artifact: the exemplar learned from a confirmed job. */
    saveExemplar: 'artifact.v1.memory.save',
  },
  template: {
    create: 'template.v1.template.create',
    get: 'template.v1.template.get',
    snapshot: 'template.v1.template.snapshot',
    list: 'template.v1.template.list',
    categories: 'template.v1.template.categories',
    update: 'template.v1.template.update',
    delete: 'template.v1.template.delete',
    patchSchema: 'template.v1.template.patch-schema',
    clone: 'template.v1.template.clone',
  },
  billing: {
    openWallet: 'billing.v1.wallet.open',
    getWallet: 'billing.v1.wallet.get',
    deposit: 'billing.v1.wallet.deposit',
    freeze: 'billing.v1.wallet.freeze',
    unfreeze: 'billing.v1.wallet.unfreeze',
    placeHold: 'billing.v1.hold.place',
    releaseHold: 'billing.v1.hold.release',
    /** All-or-nothing holds for every job of a batch, under one wallet lock. */
    placeBatchHold: 'billing.v1.hold.place-batch',
    /** At confirm: grow the job's hold to the stored object's real size, or hold it again after a straggler release. */
    coverHold: 'billing.v1.hold.cover',
    /** Asked by artifact once the worker counted the pages: the hold becomes pages × price, or the pages the wallet covers. */
    resizeHold: 'billing.v1.hold.resize',
    usage: 'billing.v1.usage.summary',
  },
  webhook: {
    create: 'webhook.v1.webhook.create',
    registerOneShot: 'webhook.v1.oneshot.register',
    verify: 'webhook.v1.webhook.verify',
    logsByJob: 'webhook.v1.logs.by-job',
    list: 'webhook.v1.webhook.list',
    update: 'webhook.v1.webhook.update',
    delete: 'webhook.v1.webhook.delete',
    rotateSecret: 'webhook.v1.webhook.rotate-secret',
    deliveries: 'webhook.v1.webhook.deliveries',
    stats: 'webhook.v1.webhook.stats',
  },
  /** Health probes: every service answers on its own subject. */
  health: {
    ping: (service: ServiceName) => `health.v1.${service}.ping`,
  },
} as const;

/** JetStream streams, subjects and durable consumer names. */
export const Streams = {
  jobs: {
    name: 'JOBS',
    subjects: ['jobs.v1.>'],
    run: 'jobs.v1.run',
    workerDurable: 'extraction-worker',
    /** A corrected or approved job to learn a layout exemplar from (ADR 0014); its own durable consumer. */
    learn: 'jobs.v1.learn',
    learnDurable: 'extraction-worker-learn',
  },
  events: {
    name: 'EVENTS',
    subjects: ['events.v1.>'],
    jobFinished: 'events.v1.job.finished',
    /** A person corrected a job's result (a new result version); never read by billing. */
    jobCorrected: 'events.v1.job.corrected',
    durables: { billing: 'billing', webhookDispatcher: 'webhook-dispatcher', webhookCorrections: 'webhook-dispatcher-corrections' },
  },
} as const;

export type ServiceName = 'gateway' | 'artifact' | 'template' | 'billing' | 'extraction-worker' | 'webhook-dispatcher';

/** Queue group per service so replicas share requests. */
export const queueGroup = (service: ServiceName) => `docket.${service}`;
