export type { ServiceDefinition, ServiceDeps, ServiceName, StopFunction } from './service-definition';
export { startRecurringJob, type RecurringJobOptions } from './recurring-job';
export { openInfrastructure, type Infrastructure } from './infrastructure';
export { startService, migrateService, allMigrations, type RunningService } from './start-service';
export { runStandalone, runMigrations } from './run';
export { onShutdownSignal } from './shutdown';
export { readinessOf } from './readiness';
export { projectKeys } from './project-keys';
