import { BillingInit1763860000000 } from './1763860000000-billing-init.js';
import { HoldCover1796000000000 } from './1796000000000-hold-cover.js';

/** Every billing migration, oldest first. */
export const billingMigrations = [BillingInit1763860000000, HoldCover1796000000000];
