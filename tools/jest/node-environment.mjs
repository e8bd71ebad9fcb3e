// Jest's node environment with the host's typed-array constructors. onnxruntime-node (the PaddleOCR engine) creates
// its output tensors from native code with the host realm's Float32Array, and onnxruntime-common, loaded inside the
// test sandbox, checks them with `instanceof` against the sandbox's own: every inference would fail under Jest
// although it works in the product. Sharing the constructors makes both realms agree.
import { TestEnvironment } from 'jest-environment-node';

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

export default class DocketNodeEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of TYPED_ARRAYS) this.global[name] = globalThis[name];
    this.global.__docketWorkerShared = WORKER_SHARED;
  }
}
