// The invoicing programs whose templates build-invoices-templates.mjs renders: command-line flag, pinned
// source, licence and designs. Invoice Ninja is deliberately absent (its designs are reserved).
import { KIMAI, KIMAI_DESIGNS } from './kimai.mjs';

export const PROGRAMS = [
  { name: 'Kimai', flag: 'kimai', source: KIMAI, licence: KIMAI.licence, engine: 'Twig (npm twig)', designs: KIMAI_DESIGNS },
];
