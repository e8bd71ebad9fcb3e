import { BillingInit1763860000000 } from './1763860000000-billing-init.js';

/** Every billing migration, oldest first. */
export const billingMigrations = [BillingInit1763860000000];
