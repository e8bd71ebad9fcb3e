import 'reflect-metadata';
import { runService } from '@docket/messaging';
import { bootstrap } from './bootstrap.js';

await runService('gateway', bootstrap);
