// @ts-check
import tseslint from 'typescript-eslint';

/**
 * `npm test` lints with typescript-eslint: the recommended rules, plus the type-aware ones that catch
 * what bites a server and a property runner: a promise nobody awaits (a lost rejection, a check that passes
 * before its request has answered) and imports of types that survive into the emitted JavaScript.
 */
export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'model/openapi.ts', '**/*.js', '**/*.mjs', '!mock/console/*.js'] },
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // Tests probe parsed response bodies field by field; typing every probe would only restate the schema.
    files: ['**/*.test.ts', 'test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The console's page (mock/console/) is plain browser JavaScript served as it is: no type information, browser globals.
    files: ['mock/console/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: 'module',
      globals: Object.fromEntries(
        ['document', 'window', 'sessionStorage', 'fetch', 'URL', 'URLSearchParams', 'Blob', 'TextDecoderStream', 'AbortController', 'setTimeout', 'clearTimeout', 'setInterval', 'navigator', 'crypto', 'performance', 'btoa', 'Node'].map((name) => [name, 'readonly']),
      ),
    },
    rules: { ...tseslint.configs.disableTypeChecked.rules, 'no-undef': 'error', '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off', '@typescript-eslint/consistent-type-imports': 'off' },
  },
);
