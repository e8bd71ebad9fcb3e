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

export default class DocketNodeEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of TYPED_ARRAYS) this.global[name] = globalThis[name];
  }
}
