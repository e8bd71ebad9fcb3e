// Jest's node environment with the host's typed-array constructors. onnxruntime-node (the PaddleOCR engine) creates
// its output tensors from native code with the host realm's Float32Array, and onnxruntime-common, loaded inside the
// test sandbox, checks them with `instanceof` against the sandbox's own: every inference would fail under Jest
// although it works in the product. Sharing the constructors makes both realms agree.
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TestEnvironment } from 'jest-environment-node';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const TYPED_ARRAYS = [
  'Float32Array',
  'Float64Array',
  'Int8Array',
  'Int16Array',
  'Int32Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Uint16Array',
  'Uint32Array',
  'BigInt64Array',
  'BigUint64Array',
];

/**
 * What the test files of one Jest worker share (every file gets a fresh global, this module is loaded once per worker):
 * the e2e tier keeps its shared stacks here (apps/e2e/src/stack.test-helper.ts), so files that need no settings of
 * their own start the six services once per worker instead of once per file.
 */
export const WORKER_SHARED = new Map();

/** The built admin CLI's runAdmin, loaded into this worker (outside the test sandbox) on first use. */
let adminRunner;

/**
 * Runs one admin CLI command in this Jest worker: the CLI's own code (apps/gateway/dist/cli: `runAdmin` with the CLI's
 * logging), without a process per command. Loading the CLI costs a process 1.3 s of CPU, paid here once per worker
 * instead of twice per e2e test file (every file creates its accounts with it). Resolves to the CLI's exit code and
 * stdout (plain values: the caller parses them in its own realm); `env` is the CLI process's environment.
 */
export function runAdminInWorker(args, env) {
  adminRunner ??= (async () => {
    const cli = (file) => pathToFileURL(join(ROOT, 'apps', 'gateway', 'dist', 'cli', file)).href;
    await import('reflect-metadata');
    const [{ adminLogging }, { runAdmin }] = await Promise.all([import(cli('admin.logging.js')), import(cli('admin.runner.js'))]);
    adminLogging('warn');
    return runAdmin;
  })();
  return adminRunner.then((runAdmin) => runAdmin([...args], { ...env })).then((r) => ({ exitCode: r.exitCode, stdout: String(r.stdout) }));
}

export default class DocketNodeEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of TYPED_ARRAYS) this.global[name] = globalThis[name];
    this.global.__docketWorkerShared = WORKER_SHARED;
    this.global.__docketRunAdmin = runAdminInWorker;
  }
}
