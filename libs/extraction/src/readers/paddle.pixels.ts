import type { Image, SKRSContext2D } from '@napi-rs/canvas';

/** Image pixels → the models' input tensors (detection and recognition alike). */

export async function pixels(img: Image, sx: number, sy: number, sw: number, sh: number, w: number, h: number): Promise<Uint8ClampedArray> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const canvas = createCanvas(w, h);
  const ctx: SKRSContext2D = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, w, h);
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(img, sx, sy, sw, sh, 0, 0, w, h);
  return ctx.getImageData(0, 0, w, h).data;
}

/** RGBA pixels → CHW float tensor data in BGR order, normalised per channel. */
export function toChw(px: Uint8ClampedArray, w: number, h: number, mean: readonly number[], std: readonly number[]): Float32Array {
  const out = new Float32Array(3 * w * h);
  const plane = w * h;
  for (let i = 0; i < plane; i++) {
    // BGR: channel 0 is blue.
    out[i] = (px[4 * i + 2]! / 255 - mean[0]!) / std[0]!;
    out[plane + i] = (px[4 * i + 1]! / 255 - mean[1]!) / std[1]!;
    out[2 * plane + i] = (px[4 * i]! / 255 - mean[2]!) / std[2]!;
  }
  return out;
}
