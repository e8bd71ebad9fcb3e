import { Initial1763859600000 } from './1763859600000-initial.js';
import { BatchesPipelines1763870000000 } from './1763870000000-batches-pipelines.js';

export const artifactMigrations = [Initial1763859600000, BatchesPipelines1763870000000];
