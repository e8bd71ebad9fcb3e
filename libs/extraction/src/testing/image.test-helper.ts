import { createCanvas, type Canvas } from '@napi-rs/canvas';

export interface TextImageOptions {
  width?: number;
  height?: number;
  font?: string;
  /** Left margin and first baseline, in pixels. */
  x?: number;
  y?: number;
  /** Baseline distance, in pixels. */
  lineHeight?: number;
}

/** Black text lines on a white canvas: the synthetic "scan" of the OCR tests. */
export function textCanvas(lines: string[], o: TextImageOptions = {}): Canvas {
  const width = o.width ?? 1700;
  const height = o.height ?? 300 + lines.length * 80;
  const c = createCanvas(width, height);
  const ctx = c.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#000';
  ctx.font = o.font ?? '40px sans-serif';
  lines.forEach((t, i) => ctx.fillText(t, o.x ?? 100, (o.y ?? 120) + i * (o.lineHeight ?? 80)));
  return c;
}

/** An encoded image (what an OCR service is handed) decoded: its size and the grey level (0–255) of one pixel. */
export async function decoded(image: Uint8Array): Promise<{ width: number; height: number; grey: (x: number, y: number) => number }> {
  const { loadImage } = await import('@napi-rs/canvas');
  const img = await loadImage(Buffer.from(image));
  const c = createCanvas(img.width, img.height);
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  return { width: img.width, height: img.height, grey: (x, y) => ctx.getImageData(x, y, 1, 1).data[0]! };
}
