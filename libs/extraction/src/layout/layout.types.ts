/** A word (or text run) with its box, in page units, origin top-left. */
export interface Word {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** OCR confidence 0..1; 1 for text layers. */
  conf: number;
}

export interface Line {
  words: Word[];
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  page: number;
}

export interface Block {
  lines: Line[];
}

export interface Page {
  /** 1-based page number. */
  number: number;
  width: number;
  height: number;
  lines: Line[];
  blocks: Block[];
  /** Set when the page came from OCR. */
  ocr?: boolean;
  /**
   * Clockwise quarter turns applied to the printed sheet because its text runs up or down it (1 or 3) or upside down
   * (2): lines, boxes and `width`/`height` are in that turned frame.
   */
  turned?: 1 | 2 | 3;
  /**
   * Ruled lines drawn on the page (table borders, row separators), horizontal or vertical, as thin boxes; set only
   * when read (text-layer PDF pages, for documents asked for tables).
   */
  rules?: Rule[];
}

/** A ruled line: a thin box in page units, origin top-left (horizontal when wider than high). */
export interface Rule {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A document as every reader returns it: pages of words grouped into lines, in reading order. */
export interface DocLayout {
  pages: Page[];
  /** Reader-provided tables (CSV, HTML) rendered straight to markdown and used for table fields. */
  tables?: string[][][];
}
