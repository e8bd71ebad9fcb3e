import { useEffect, useRef, useState } from 'react';
import * as pdfjs from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import type { FieldMeta } from './api.js';

pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;

/** Confidence as a colour: red (0) through amber to green (1). */
export function confidenceColour(c: number): string {
  return `hsl(${Math.round(Math.max(0, Math.min(1, c)) * 120)}, 70%, 40%)`;
}

interface Props {
  /** A presigned download URL of the uploaded file. */
  url: string;
  contentType: string;
  page: number;
  fields: Record<string, FieldMeta>;
  selected: string | null;
  onSelect(key: string): void;
}

const WIDTH = 640;

/** The page image (PDF via pdf.js, or the image itself) with each field's bounding box drawn over it. */
export function PageView({ url, contentType, page, fields, selected, onSelect }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  // The page's size in its own units (PDF points or image pixels): boxes are placed in percent of it, so they stay on
  // their words however wide the page is shown (a phone shrinks it).
  const [size, setSize] = useState<{ w: number; h: number } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const isPdf = contentType.includes('pdf');

  useEffect(() => {
    if (!isPdf) return;
    let cancelled = false;
    (async () => {
      const data = new Uint8Array(await (await fetch(url)).arrayBuffer());
      const doc = await pdfjs.getDocument({ data }).promise;
      const p = await doc.getPage(Math.min(page, doc.numPages));
      const unit = p.getViewport({ scale: 1 });
      const viewport = p.getViewport({ scale: (WIDTH / unit.width) * (window.devicePixelRatio || 1) });
      const el = canvas.current;
      if (cancelled || !el) return;
      el.width = viewport.width;
      el.height = viewport.height;
      await p.render({ canvas: el, canvasContext: el.getContext('2d')!, viewport }).promise;
      if (!cancelled) setSize({ w: unit.width, h: unit.height });
    })().catch((e: unknown) => setProblem(e instanceof Error ? e.message : String(e)));
    return () => {
      cancelled = true;
    };
  }, [url, page, isPdf]);

  const boxes = Object.entries(fields).filter(([, m]) => m.bbox && (m.page ?? 1) === page);
  return (
    <div className="page" data-testid="page-view">
      {problem && <p role="alert">Could not render the page: {problem}</p>}
      {isPdf ? (
        <canvas ref={canvas} aria-label={`Page ${page} of the document`} />
      ) : (
        <img
          src={url}
          alt={`Page ${page} of the document`}
          width={WIDTH}
          onLoad={(e) => setSize({ w: e.currentTarget.naturalWidth || WIDTH, h: e.currentTarget.naturalHeight || WIDTH })}
        />
      )}
      {size &&
        boxes.map(([key, m]) => {
          const [x0, y0, x1, y1] = m.bbox!;
          return (
            <button
              key={key}
              type="button"
              className={`box${selected === key ? ' selected' : ''}`}
              data-field={key}
              aria-label={`Box of field ${key}`}
              title={`${key} (${Math.round(m.confidence * 100)}%)`}
              onClick={() => onSelect(key)}
              style={{
                left: `${(x0 / size.w) * 100}%`,
                top: `${(y0 / size.h) * 100}%`,
                width: `${(Math.max(1, x1 - x0) / size.w) * 100}%`,
                height: `${(Math.max(1, y1 - y0) / size.h) * 100}%`,
                borderColor: confidenceColour(m.confidence),
              }}
            />
          );
        })}
    </div>
  );
}
