export { platformMigrations } from './platform-migrations';
export { PlatformDirectory, type DirectoryOptions, type ProjectRecord } from './platform-directory';
export {
  createProject,
  listProjects,
  rotateKeys,
  revokeKey,
  setSetting,
  type CreatedProject,
  type KeyPair,
} from './projects';
export { devJwtKeys, devMasterKey } from './dev-secrets';
export { grantServiceRole, PLATFORM_READS, type ServiceRole } from './service-roles';
