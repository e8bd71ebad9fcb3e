// Lint: module boundaries (no app imports another app; libs only through their index; tags decide
// who may depend on whom) plus a small set of correctness rules for TypeScript.
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

const TESTS = ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/*.test-helper.ts'];

/** Who may depend on whom. Tests may also use the testing lib (real-infra helpers). */
function boundaries(forTests) {
  const t = (tags) => (forTests ? [...tags, 'type:testing'] : tags);
  return {
    enforceBuildableLibDependency: false,
    depConstraints: [
      { sourceTag: 'type:app', onlyDependOnLibsWithTags: t(['type:contracts', 'type:util', 'type:data-access']) },
      { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:testing', 'type:util', 'type:contracts', 'type:sdk'] },
      // The SDK is published on its own: it depends on no workspace code (only on the API's OpenAPI document).
      { sourceTag: 'type:sdk', onlyDependOnLibsWithTags: [] },
      { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: t(['type:util']) },
      { sourceTag: 'type:util', onlyDependOnLibsWithTags: t(['type:util', 'type:contracts']) },
      { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: t(['type:util']) },
      { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:util', 'type:contracts'] },
      { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
      ...['gateway', 'artifact', 'template', 'billing', 'extraction-worker', 'webhook-dispatcher'].map((s) => ({
        sourceTag: `scope:${s}`,
        onlyDependOnLibsWithTags: ['scope:shared', `scope:${s}`],
      })),
      { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: ['scope:shared', 'scope:e2e', 'scope:sdk'] },
      { sourceTag: 'scope:sdk', onlyDependOnLibsWithTags: [] },
    ],
  };
}

export default [
  { ignores: ['**/dist/**', '**/node_modules/**', 'tmp/**', '.data/**', '.nx/**', 'coverage/**'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaVersion: 2023, sourceType: 'module' } },
    plugins: { '@nx': nx, '@typescript-eslint': tseslint.plugin },
    rules: {
      '@nx/enforce-module-boundaries': ['error', boundaries(false)],
      // Apps are deployables, never libraries: nothing imports an app package.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@docket/(gateway|artifact|template|billing|extraction-worker|webhook-dispatcher|e2e)(/|$)',
              message: 'No app imports another app: share code through a lib in libs/.',
            },
          ],
        },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unsafe-function-type': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(send|request|publish|emit)$/] > Literal:first-child[value=/^(artifact|template|billing|webhook|jobs|events|health)\\.v[0-9]/]',
          message: 'NATS subjects come from @docket/contracts (Subjects / Streams), never inline strings.',
        },
      ],
    },
  },
  { files: TESTS, rules: { '@nx/enforce-module-boundaries': ['error', boundaries(true)] } },
  // The extraction engine stays readable in small named stages (issue 19): no file over 400 lines, no function over 60.
  {
    files: ['libs/extraction/src/**/*.ts'],
    ignores: TESTS,
    rules: { 'max-lines': ['error', { max: 400 }], 'max-lines-per-function': ['error', { max: 60 }] },
  },
];
