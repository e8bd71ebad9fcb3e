import { Initial1763859600000 } from './1763859600000-initial.js';

export const artifactMigrations = [Initial1763859600000];
