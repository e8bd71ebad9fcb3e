// The invoicing programs whose templates build-invoices-templates.mjs renders: command-line flag, pinned
// source, licence and designs. Invoice Ninja is deliberately absent (its designs are reserved).
import { KIMAI, KIMAI_DESIGNS } from './kimai.mjs';
import { KILLBILL, KILLBILL_DESIGNS } from './killbill.mjs';
import { FOSSBILLING, FOSSBILLING_DESIGNS } from './fossbilling.mjs';
import { SIWAPP, SIWAPP_DESIGNS } from './siwapp.mjs';
import { CRATER, CRATER_DESIGNS } from './crater.mjs';
import { INVOICEPLANE, INVOICEPLANE_DESIGNS } from './invoiceplane.mjs';
import { SOLIDINVOICE, SOLIDINVOICE_DESIGNS } from './solidinvoice.mjs';

export const PROGRAMS = [
  { name: 'Kimai', flag: 'kimai', source: KIMAI, licence: KIMAI.licence, engine: 'Twig (npm twig)', designs: KIMAI_DESIGNS },
  {
    name: 'FOSSBilling',
    flag: 'fossbilling',
    source: FOSSBILLING,
    licence: FOSSBILLING.licence,
    engine: 'Twig (npm twig)',
    designs: FOSSBILLING_DESIGNS,
  },
  {
    name: 'SolidInvoice',
    flag: 'solidinvoice',
    source: SOLIDINVOICE,
    licence: SOLIDINVOICE.licence,
    engine: 'Twig (Debian php-twig)',
    designs: SOLIDINVOICE_DESIGNS,
  },
  {
    name: 'InvoicePlane',
    flag: 'invoiceplane',
    source: INVOICEPLANE,
    licence: INVOICEPLANE.licence,
    engine: 'PHP views (Debian php-cli)',
    designs: INVOICEPLANE_DESIGNS,
  },
  {
    name: 'Crater',
    flag: 'crater',
    source: CRATER,
    licence: CRATER.licence,
    engine: 'Blade (./blade.mjs, Debian php-cli)',
    designs: CRATER_DESIGNS,
  },
  { name: 'Siwapp', flag: 'siwapp', source: SIWAPP, licence: SIWAPP.licence, engine: 'ERB (Debian ruby)', designs: SIWAPP_DESIGNS },
  {
    name: 'Kill Bill',
    flag: 'killbill',
    source: KILLBILL,
    licence: KILLBILL.licence,
    engine: 'Mustache (npm mustache)',
    designs: KILLBILL_DESIGNS,
  },
];
