// Strict TypeScript rules for every package and service; promises must be awaited or handled.
// Below them, the service shape of issue #16 (docs/service-shape.md): tenancy through
// tenantTable/sharedTable and the import boundaries.
import tseslint from 'typescript-eslint';

const KNEX_NAMES = '/^(db|trx|tx|knex|platformDb)$/';
const TABLE_ARGUMENT = '[arguments.0.type=/^(Literal|TemplateLiteral)$/]';
const noDirectTables = [
  'error',
  {
    selector: `CallExpression[callee.type='Identifier'][callee.name=${KNEX_NAMES}]${TABLE_ARGUMENT}`,
    message:
      "Reach a tenant table through tenantTable(db, tenant, 'table') and a deliberately unscoped one through sharedTable(db, 'table') (@platform/db).",
  },
  {
    selector: `CallExpression[callee.type='MemberExpression'][callee.property.name=${KNEX_NAMES}]${TABLE_ARGUMENT}`,
    message:
      "Reach a tenant table through tenantTable(db, tenant, 'table') and a deliberately unscoped one through sharedTable(db, 'table') (@platform/db).",
  },
];

const noBench = {
  group: ['**/bench/**', '**/bench'],
  message: 'Benchmarks are not part of the product: nothing under src imports from bench/.',
};
const noOtherFeatureRepository = {
  group: ['../*/*.repository', '../../*/*.repository', '../../*/*/*.repository'],
  message: "A feature does not reach into another feature's repository; call that feature's service.",
};
const noRequestSchemas = {
  group: ['*.schemas', '**/*.schemas'],
  message: 'Repositories take typed input, never the request schemas of the edge.',
};
// The platform database has one owner, @platform/directory, which builds on tenancy's parts;
// tenancy's key check reads it through the KeyDirectory interface, so the arrow points one way.
const noDirectoryInTenancy = {
  group: ['@platform/directory', '@platform/directory/**'],
  message: 'Tenancy never imports @platform/directory: name what it needs in an interface (see KeyDirectory).',
};
// Tenancy sits below HTTP, the runtime and the contract (they build on it), and limits below everything.
const noUpperLayersInTenancy = {
  group: ['@platform/http', '@platform/runtime', '@platform/contract'],
  message: 'Tenancy sits below HTTP, the runtime and the contract: they import it, never the other way.',
};
const noPlatformInLimits = {
  group: ['@platform/*'],
  message: 'The limits are plain data structures: they import no other platform package.',
};
const noServiceLayersInDirectory = {
  group: ['@platform/runtime', '@platform/admin', '@platform/http', '@platform/testkit'],
  message: 'The platform database owner knows nothing of HTTP, the runtime or the admin command line.',
};
const restrictImports = (...patterns) => ['error', { patterns }];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', 'coverage/**', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Everywhere: product code never imports benchmarks.
  {
    files: ['services/*/src/**/*.ts', 'packages/*/src/**/*.ts'],
    rules: { 'no-restricted-imports': restrictImports(noBench) },
  },
  {
    files: ['packages/tenancy/src/**/*.ts'],
    rules: { 'no-restricted-imports': restrictImports(noBench, noDirectoryInTenancy, noUpperLayersInTenancy) },
  },
  {
    files: ['packages/limits/src/**/*.ts'],
    rules: { 'no-restricted-imports': restrictImports(noBench, noPlatformInLimits) },
  },
  {
    files: ['packages/directory/src/**/*.ts'],
    rules: { 'no-restricted-imports': restrictImports(noBench, noServiceLayersInDirectory) },
  },
  // Every service: tables only through tenantTable/sharedTable, and the import boundaries.
  {
    files: ['services/*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': noDirectTables,
      'no-restricted-imports': restrictImports(noBench, noOtherFeatureRepository),
    },
  },
  {
    files: ['services/*/src/**/*.repository.ts'],
    rules: { 'no-restricted-imports': restrictImports(noBench, noOtherFeatureRepository, noRequestSchemas) },
  },
);
