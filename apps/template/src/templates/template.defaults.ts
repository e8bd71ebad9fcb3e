import type { TemplateSettingsDto } from '@docket/contracts';

export interface TemplateSettings {
  auto_save: boolean;
  confidence_threshold: number;
  ocr_engine: string;
  /** ISO 4217 code for amounts the document prints without a currency; null: none. */
  default_currency: string | null;
  /** Read only the pages the wallet covers instead of failing with `insufficient_funds` (ADR 0005). */
  partial_pages: boolean;
}

/** Spec §2.3 defaults; given keys override them one by one. */
export const DEFAULT_SETTINGS: Readonly<TemplateSettings> = Object.freeze({
  auto_save: false,
  confidence_threshold: 0.7,
  ocr_engine: 'default',
  default_currency: null,
  partial_pages: false,
});

/** Stored settings with the defaults of keys added since they were saved (`partial_pages`). */
export function withDefaultSettings(stored: Partial<TemplateSettings>): TemplateSettings {
  return { ...DEFAULT_SETTINGS, ...stored };
}

export function mergeSettings(base: TemplateSettings, patch?: TemplateSettingsDto): TemplateSettings {
  const out = withDefaultSettings(base);
  if (patch?.auto_save !== undefined) out.auto_save = patch.auto_save;
  if (patch?.confidence_threshold !== undefined) out.confidence_threshold = patch.confidence_threshold;
  if (patch?.ocr_engine !== undefined) out.ocr_engine = patch.ocr_engine;
  if (patch?.default_currency !== undefined) out.default_currency = patch.default_currency;
  if (patch?.partial_pages !== undefined) out.partial_pages = patch.partial_pages;
  return out;
}
