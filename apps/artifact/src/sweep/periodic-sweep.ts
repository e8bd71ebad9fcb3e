// The sweep base class moved to @docket/messaging (billing's hold reconciliation uses it too).
export { PeriodicSweep } from '@docket/messaging';
