/**
 * Layout memory (ADR 0014): what a corrected or approved document teaches about its layout, and what the engine
 * reports when a remembered layout helped. Plain JSON, stored by the artifact service per account.
 */

/** [x0, y0, x1, y1] as fractions of the page's width and height (0..1), origin top-left. */
export type PageBox = [number, number, number, number];

/** What identifies a layout: its issuer's identifiers, its header text and its page geometry. */
export interface LayoutFingerprint {
  /** Digests (sha-256, 16 hex) of the issuer identifiers printed (VAT ids, IBANs), normalised. */
  ids: string[];
  /** Digests of the words printed in the top band of the first page (the letterhead). */
  header: string[];
  /** Digests of the letter-only words of the first page (the layout's printed labels dominate them). */
  words: string[];
  pages: number;
  /** First page's size in page units, rounded. */
  width: number;
  height: number;
}

/** Where one field's value stood on the remembered document. */
export interface FieldAnchor {
  key: string;
  page: number;
  /** The value's box on its page. */
  region: PageBox;
  /**
   * Digest (sha-256, 16 hex) of the label printed next to the value (its lower-case words), when one stands to its left
   * or above it: compared, never read back — the line above a value may be another value (a name over an address).
   */
  label?: string;
  /** Words of that label. */
  labelWords?: number;
  labelBox?: PageBox;
  /** Where the value stands from its label. */
  direction?: 'right' | 'below';
  /** Words and lines the value was printed in. */
  words: number;
  lines: number;
  /** Digest of the word printed right after the value on its line, close to it (the value ends there: "Shop" before "Ltd"). */
  after?: string;
  /** The value started right after its label (its start moves with the label, not with a column edge). */
  adjacent?: boolean;
  /** A text value's digest (sha-256 of its letters and digits, 16 hex) and their count: found again where printed. */
  value?: { digest: string; length: number };
}

/** The data of an exemplar: what `learnLayout` returns and the artifact service stores. */
export interface LayoutExemplarData {
  fingerprint: LayoutFingerprint;
  anchors: FieldAnchor[];
}

/** A stored exemplar as the engine receives it for a job. */
export interface LayoutExemplar extends LayoutExemplarData {
  id: string;
}

/** The result's note of the exemplar that helped (`memory` in the job's metadata). */
export interface MemoryNote {
  exemplar_id: string;
  /** Fingerprint similarity 0..1 of the document to the exemplar. */
  similarity: number;
  /** Fields whose value the exemplar's anchors gave. */
  fields: string[];
}
