export {
  createDb,
  withDatabase,
  ensureDatabase,
  dropDatabase,
  isDatabaseUp,
  type DbLogger,
  type DbOptions,
} from './knex-factory';
export { migrateLatest, migrateRollbackAll, type Migration } from './migrations';
export { startEmbeddedPostgres, type EmbeddedServer } from './embedded-postgres';
export { EmbeddedPostgresError } from './embedded-postgres-root';
export { isUniqueViolation } from './pg-errors';
export { deleteInLockedBatches, tryTransactionLock, type LockedBatchesResult } from './advisory-lock';
export {
  tenantTable,
  sharedTable,
  tenantColumns,
  tenantOfRow,
  tenantBindings,
  tenantKey,
  type Tenant,
  type TenantColumns,
} from './tenant-table';
