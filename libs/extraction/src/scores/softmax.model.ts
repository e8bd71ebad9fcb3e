/**
 * Multinomial logistic regression (softmax), the scorer of the `scores` stage: a model is a list of named features,
 * their standardisation (mean, spread) and one weight row per class. `fitSoftmax` trains one on labelled vectors by
 * full-batch gradient descent with L2 regularisation; it is deterministic (zero start, fixed steps), so the same data
 * gives the same weights on every machine (`npm run train`).
 */

export interface SoftmaxModel {
  /** Feature names, in vector order. */
  features: readonly string[];
  classes: readonly string[];
  /** Per feature: subtracted, then divided by `scale` (the tune data's mean and standard deviation). */
  mean: readonly number[];
  scale: readonly number[];
  /** Per class: a bias followed by one weight per feature. */
  weights: readonly (readonly number[])[];
}

export interface FitOptions {
  /** L2 penalty on the weights (not the biases). */
  l2?: number;
  /** Gradient-descent steps and step size. */
  steps?: number;
  rate?: number;
}

/** L2 penalty by default: strong enough that a handful of datasets cannot pin a weight to one of them. */
const DEFAULT_L2 = 0.01;
const DEFAULT_STEPS = 2000;
const DEFAULT_RATE = 0.5;
/** A feature with no spread in the training data is centred but not scaled. */
const MIN_SCALE = 1e-9;

/** Class probabilities of one feature vector, in `model.classes` order. */
export function predictSoftmax(model: SoftmaxModel, x: readonly number[]): number[] {
  const z = standardise(model, x);
  return softmax(model.weights.map((w) => w[0]! + z.reduce((s, v, j) => s + v * w[j + 1]!, 0)));
}

/** Fits a model on vectors `xs` with class labels `ys` (each one of `classes`). */
export function fitSoftmax(
  features: readonly string[],
  classes: readonly string[],
  xs: readonly (readonly number[])[],
  ys: readonly string[],
  opts: FitOptions = {},
): SoftmaxModel {
  const { l2 = DEFAULT_L2, steps = DEFAULT_STEPS, rate = DEFAULT_RATE } = opts;
  const { mean, scale } = moments(features.length, xs);
  const model0 = { features, classes, mean, scale, weights: [] as number[][] };
  const zs = xs.map((x) => standardise(model0, x));
  const target = ys.map((y) => classes.indexOf(y));
  if (target.some((t) => t < 0)) throw new Error('fitSoftmax: a label is not one of the classes');
  const w = classes.map(() => new Array<number>(features.length + 1).fill(0));
  for (let step = 0; step < steps; step++) descend(w, zs, target, l2, rate);
  return { ...model0, weights: w.map((row) => row.map(roundWeight)) };
}

/** One full-batch gradient step of the mean cross-entropy plus the L2 penalty. */
function descend(w: number[][], zs: readonly number[][], target: readonly number[], l2: number, rate: number): void {
  const grad = w.map((row) => row.map(() => 0));
  zs.forEach((z, i) => {
    const p = softmax(w.map((row) => row[0]! + z.reduce((s, v, j) => s + v * row[j + 1]!, 0)));
    p.forEach((pk, k) => {
      const err = pk - (k === target[i] ? 1 : 0);
      grad[k]![0]! += err;
      z.forEach((v, j) => (grad[k]![j + 1]! += err * v));
    });
  });
  const n = Math.max(1, zs.length);
  w.forEach((row, k) => row.forEach((v, j) => (row[j] = v - rate * (grad[k]![j]! / n + (j > 0 ? l2 * v : 0)))));
}

function moments(d: number, xs: readonly (readonly number[])[]): { mean: number[]; scale: number[] } {
  const n = Math.max(1, xs.length);
  const mean = Array.from({ length: d }, (_, j) => xs.reduce((s, x) => s + x[j]!, 0) / n);
  const scale = Array.from({ length: d }, (_, j) => Math.sqrt(xs.reduce((s, x) => s + (x[j]! - mean[j]!) ** 2, 0) / n)).map((s) =>
    s < MIN_SCALE ? 1 : s,
  );
  return { mean: mean.map(roundWeight), scale: scale.map(roundWeight) };
}

function standardise(model: Pick<SoftmaxModel, 'mean' | 'scale'>, x: readonly number[]): number[] {
  return x.map((v, j) => (v - model.mean[j]!) / model.scale[j]!);
}

function softmax(z: readonly number[]): number[] {
  const m = Math.max(...z);
  const e = z.map((v) => Math.exp(v - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
}

/** Weights are stored to 6 significant decimals: the committed JSON stays readable and diffs stay small. */
const roundWeight = (v: number) => Math.round(v * 1e6) / 1e6;
