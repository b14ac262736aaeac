export { SecretBox } from './secret-box';
export { isPublishedSecret, settingsWithPublishedSecrets, type SecretSettings } from './published-secrets';
export { platformMigrations } from './platform-migrations';
export { PlatformDirectory, type DirectoryOptions, type ProjectRecord } from './platform-directory';
export {
  createProject,
  listProjects,
  rotateKeys,
  revokeKey,
  setSetting,
  setSettings,
  validateSetting,
  SETTING_NAMES,
  type CreatedProject,
  type KeyPair,
} from './projects';
export { devJwtKeys, devMasterKey } from './dev-secrets';
export { grantServiceRole, PLATFORM_READS, PLATFORM_WRITES, type ServiceRole } from './service-roles';
export {
  createTenant,
  deleteTenant,
  findTenant,
  findTenants,
  listTenants,
  renameTenant,
  setTenantSuspension,
  type TenantRecord,
} from './tenants';
export {
  createProjectKey,
  createTenantProject,
  deleteTenantProject,
  findActiveKeyOwner,
  findProjectByNames,
  findTenantProject,
  listProjectKeys,
  listTenantProjects,
  renameTenantProject,
  tenantOfProject,
  revokeProjectKey,
  rotateProjectKey,
  type IssuedKey,
  type KeyRecord,
  type TenantProjectRecord,
} from './tenant-projects';
