#!/usr/bin/env node
// The `docket` bin: runs one command and exits with the documented code (see run.ts and the README).
import { describeError, exitCodeFor } from './exit-codes.js';
import { run } from './run.js';

async function main(): Promise<void> {
  let code: number;
  try {
    code = await run(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${describeError(err)}\n`);
    code = exitCodeFor(err);
  }
  if (code >= 0) process.exitCode = code;
}

await main();
