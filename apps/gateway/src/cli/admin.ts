import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { PinoNestLogger } from '@docket/config';
import { pino } from 'pino';
import { runAdmin } from './admin.runner.js';

// stdout carries exactly one JSON object; every log line (Nest's NATS client included) goes to stderr.
const log = pino({ name: 'docket-admin', level: process.env.LOG_LEVEL ?? 'warn' }, pino.destination({ dest: 2, sync: true }));
Logger.overrideLogger(new PinoNestLogger(log));

const result = await runAdmin(process.argv.slice(2), process.env);
process.exitCode = result.exitCode;
process.stdout.write(result.stdout);
// Connections are closed by runAdmin; this only guards against a stray handle keeping the CLI alive.
setTimeout(() => process.exit(result.exitCode), 5_000).unref();
