export { loadPlatformConfig, assertProductionSecrets, type PlatformConfig } from './config';
export { ConfigError, readEnv } from './read-env';
export type {
  Job,
  ServiceDefinition,
  ServiceDeps,
  ServiceName,
  ServiceParts,
  StopFunction,
} from './service-definition';
export { assembleService, httpAppOf, type AssembledService } from './assemble';
export { projectErasureJob } from './project-erasure-job';
export { userErasureJob } from './user-erasure-job';
export { startRecurringJob, type RecurringJobOptions } from './recurring-job';
export { openInfrastructure, type Infrastructure } from './infrastructure';
export { startService, migrateService, allMigrations, type RunningService } from './start-service';
export { runStandalone, runMigrations } from './run';
export { onShutdownSignal } from './shutdown';
export { readinessOf } from './readiness';
export { BudgetPool, OverBudgetError, type BudgetLimit, type BudgetPoolOptions } from './budget-pool';
export { spawnServiceWorker, type ServiceWorkerOptions } from './spawn-worker';
export { threadCpuClock } from './thread-cpu-clock';
