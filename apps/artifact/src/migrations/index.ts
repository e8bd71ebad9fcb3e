import { Initial1763859600000 } from './1763859600000-initial.js';
import { BatchesPipelines1763870000000 } from './1763870000000-batches-pipelines.js';
import { JobOcrEngine1763880000000 } from './1763880000000-job-ocr-engine.js';
import { JobDefaultCurrency1797000000000 } from './1797000000000-job-default-currency.js';
import { AutoTemplateDefault1796000000000 } from './1796000000000-auto-template-default.js';
import { JobPartialPages1796100000000 } from './1796100000000-job-partial-pages.js';
import { OutboxHeaders1797100000000 } from './1797100000000-outbox-headers.js';
import { JobResults1798000000000 } from './1798000000000-job-results.js';
import { LayoutMemory1799000000000 } from './1799000000000-layout-memory.js';

export const artifactMigrations = [
  Initial1763859600000,
  BatchesPipelines1763870000000,
  JobOcrEngine1763880000000,
  AutoTemplateDefault1796000000000,
  JobPartialPages1796100000000,
  JobDefaultCurrency1797000000000,
  OutboxHeaders1797100000000,
  JobResults1798000000000,
  LayoutMemory1799000000000,
];
