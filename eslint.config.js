import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

// Web features (docs/architecture.md, 'How to add a module'): a feature may use another feature's data hooks and
// session hooks (its api/ and hooks/ folders), never its components, routes or anything else; shared things live in
// src/lib or src/components.
const webFeatures = readdirSync(join(import.meta.dirname, 'apps/web/src/features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const featureBoundaries = webFeatures.map((feature) => ({
  files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^@/features/(?!${feature}/)[^/]+/(?!api/|hooks/)`,
            message: "Another feature's internals: use its api/ or hooks/, or move what you share to src/lib or src/components.",
          },
        ],
      },
    ],
  },
}));

// Server layers (docs/architecture.md, 'A request, from the edge to the database'): SQL only in repositories, and
// transactions opened only at the edge (routes through the app.in* wrappers, job handlers), never in a use case.
const SQL_OUTSIDE_REPOSITORY = {
  selector: "CallExpression[callee.property.name='query']",
  message: 'SQL belongs in the module repository: call a repository function from the service.',
};
const TRANSACTION_CALL = {
  selector: "CallExpression[callee.property.name='transaction']",
  message: 'Use cases never open transactions: the route opens one with app.inTenant / app.inUser / app.inOperator / app.inPlatform.',
};
const RUN_TRANSACTION_MESSAGE =
  'Use cases and repositories never open transactions: take (q, ctx, input) and let the edge open it (app.inTenant / app.inUser / app.inOperator / app.inPlatform on the route, runTransaction in a *.jobs.ts handler). A flow of several transactions is written at the edge, one after the other (decision 0070).';
const RUN_TRANSACTION = [
  { selector: "ImportSpecifier[imported.name='runTransaction']", message: RUN_TRANSACTION_MESSAGE },
  { selector: "CallExpression[callee.name='runTransaction']", message: RUN_TRANSACTION_MESSAGE },
  { selector: "MemberExpression[property.name='runTransaction']", message: RUN_TRANSACTION_MESSAGE },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Tests and the HTTP test client read loosely typed JSON.
    files: ['**/*.test.ts', 'apps/server/test/**', 'e2e/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Server modules (docs/architecture.md, "How to add a module"): a module is routes -> service -> repository.
    // Other modules are reached through their services, never their repositories, and the app is not imported back.
    files: ['apps/server/src/modules/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!\\.)[^/]+/[^/]+\\.repository(\\.ts)?$',
              message: "Call the other module's service, never its repository (issue 6: modules meet at their services).",
            },
            { regex: '^(\\.\\./)+app(\\.ts)?$', message: 'Modules get their dependencies from platform/module.ts (AppDeps), not from the app.' },
          ],
        },
      ],
    },
  },
  {
    // Only repositories hold SQL: a route or a service that sends a query is a layer skipped.
    files: ['apps/server/src/modules/**/*.routes.ts'],
    rules: { 'no-restricted-syntax': ['error', SQL_OUTSIDE_REPOSITORY, TRANSACTION_CALL] },
  },
  {
    // Use cases and repositories never open transactions (issue 6 item 1, decision 0070): they take an open one (q).
    // The edge opens it: app.inTenant / app.inUser / app.inOperator / app.inPlatform on a route, runTransaction in a
    // job handler (*.jobs.ts).
    // A flow of several transactions (auth.flows.ts) takes the edge's Steps and calls no runTransaction either.
    files: ['apps/server/src/modules/**/*.service.ts', 'apps/server/src/modules/**/*.flows.ts'],
    rules: { 'no-restricted-syntax': ['error', SQL_OUTSIDE_REPOSITORY, TRANSACTION_CALL, ...RUN_TRANSACTION] },
  },
  {
    files: ['apps/server/src/**/*.repository.ts'],
    rules: { 'no-restricted-syntax': ['error', TRANSACTION_CALL, ...RUN_TRANSACTION] },
  },
  ...featureBoundaries,
  {
    // The domain package is pure: no I/O, no framework, nothing of ours (STYLE.md, "Shape").
    files: ['packages/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'fs', 'path', 'crypto', 'http', 'https', 'net', 'child_process'], message: 'packages/domain does no I/O.' },
            { group: ['pg', '@electric-sql/*', 'fastify*', '@fastify/*', 'react', 'react-*', 'nodemailer'], message: 'packages/domain depends on no framework or driver.' },
            { group: ['@pharmapoint/server*', '@pharmapoint/web*', '../../apps/*'], message: 'The domain depends on nothing of ours.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'fetch', message: 'packages/domain does no I/O.' }],
    },
  },
);
