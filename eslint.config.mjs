// Lint: module boundaries (no app imports another app; libs only through their index; tags decide
// who may depend on whom) plus a small set of correctness rules for TypeScript.
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

export default [
  { ignores: ['**/dist/**', '**/node_modules/**', 'tmp/**', '.data/**', '.nx/**', 'coverage/**'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaVersion: 2023, sourceType: 'module' } },
    plugins: { '@nx': nx, '@typescript-eslint': tseslint.plugin },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:contracts', 'type:util', 'type:data-access', 'type:testing'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:testing', 'type:util', 'type:contracts'] },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:util'] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util', 'type:contracts'] },
            { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: ['type:util'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:util', 'type:contracts'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:shared', 'scope:gateway'] },
            { sourceTag: 'scope:artifact', onlyDependOnLibsWithTags: ['scope:shared', 'scope:artifact'] },
            { sourceTag: 'scope:template', onlyDependOnLibsWithTags: ['scope:shared', 'scope:template'] },
            { sourceTag: 'scope:billing', onlyDependOnLibsWithTags: ['scope:shared', 'scope:billing'] },
            { sourceTag: 'scope:extraction-worker', onlyDependOnLibsWithTags: ['scope:shared', 'scope:extraction-worker'] },
            { sourceTag: 'scope:webhook-dispatcher', onlyDependOnLibsWithTags: ['scope:shared', 'scope:webhook-dispatcher'] },
            { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: ['scope:shared', 'scope:e2e'] },
          ],
        },
      ],
      '@typescript-eslint/no-floating-promises': 'off',
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name=/^(send|request|publish|emit)$/] > Literal:first-child[value=/^(artifact|template|billing|webhook|jobs|events|health)\\.v[0-9]/]",
          message: 'NATS subjects come from @docket/contracts (Subjects / Streams), never inline strings.',
        },
      ],
    },
  },
];
