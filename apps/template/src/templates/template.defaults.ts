import type { TemplateSettingsDto } from '@docket/contracts';

export interface TemplateSettings {
  auto_save: boolean;
  confidence_threshold: number;
  ocr_engine: string;
  /** ISO 4217 code for amounts the document prints without a currency; null: none. */
  default_currency: string | null;
}

/** Spec §2.3 defaults; given keys override them one by one. */
export const DEFAULT_SETTINGS: Readonly<TemplateSettings> = Object.freeze({ auto_save: false, confidence_threshold: 0.7, ocr_engine: 'default', default_currency: null });

export function mergeSettings(base: TemplateSettings, patch?: TemplateSettingsDto): TemplateSettings {
  const out = { ...base };
  if (patch?.auto_save !== undefined) out.auto_save = patch.auto_save;
  if (patch?.confidence_threshold !== undefined) out.confidence_threshold = patch.confidence_threshold;
  if (patch?.ocr_engine !== undefined) out.ocr_engine = patch.ocr_engine;
  if (patch?.default_currency !== undefined) out.default_currency = patch.default_currency;
  return out;
}
