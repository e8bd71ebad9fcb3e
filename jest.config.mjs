// One Jest config for the whole workspace, native ESM (NestJS 12 is ESM-only).
// Tiers are chosen by file name: *.spec.ts (unit), *.int-spec.ts (integration), apps/e2e (e2e).
import { readFileSync } from 'node:fs';

const swc = JSON.parse(readFileSync(new URL('./.swcrc', import.meta.url), 'utf8'));
delete swc.$schema;

const common = {
  rootDir: '.',
  testEnvironment: '<rootDir>/tools/jest/node-environment.mjs',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  moduleNameMapper: {
    '^@docket/(contracts|messaging|storage|database|errors|config|testing|extraction|sdk)$': '<rootDir>/libs/$1/src/index.ts',
    '^@docket/sdk/mcp$': '<rootDir>/libs/sdk/src/mcp/server.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
};

export default {
  // Longest files first, also on a clean clone without Jest's recorded durations (tools/jest/sequencer.mjs).
  testSequencer: '<rootDir>/tools/jest/sequencer.mjs',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs}/**/src/**/*.spec.ts'] },
    { ...common, displayName: 'int', testMatch: ['<rootDir>/{apps,libs}/**/src/**/*.int-spec.ts'] },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/apps/e2e/src/**/*.e2e-spec.ts'],
      // Stacks shared by the test files of one worker are stopped once all files ran (apps/e2e/src/stack.test-helper.ts).
      globalSetup: '<rootDir>/tools/jest/e2e-setup.mjs',
      globalTeardown: '<rootDir>/tools/jest/e2e-teardown.mjs',
    },
  ],
};
