import type { Knex } from 'knex';
import {
  createTenantProject,
  deleteTenantProject,
  findTenantProject,
  listTenantProjects,
  renameTenantProject,
  type TenantProjectRecord,
  type SecretBox,
} from '@platform/directory';
import { errors } from '@platform/tenancy';
import type { AuditContext } from '../audit/audit.model';
import { record } from '../audit/audit.service';
import { erasureOf, requestErasure } from '../erasure/erasure.service';
import { toKey, type IssuedKeyView } from '../keys/keys.mapper';
import { toConsoleProject, type ConsoleProject } from './projects.mapper';

export interface ProjectDeps {
  db: Knex;
  platformDb: Knex;
  relay: { kick(): void };
  secrets: SecretBox;
}

/** The organisation's project, or 404 (another organisation's project is not found either). */
export async function requireProject(
  platformDb: Knex,
  tenantId: string,
  projectId: string,
  options: { deleted?: boolean } = {},
): Promise<TenantProjectRecord> {
  const project = await findTenantProject(platformDb, tenantId, projectId);
  if (!project || (project.deletedAt && !options.deleted)) throw errors.notFound('Project');
  return project;
}

/** Creates the project with its first key pair; the secret is in this response and nowhere else, ever. */
export async function createProject(
  deps: ProjectDeps,
  context: AuditContext,
  tenantId: string,
  name: string,
): Promise<ConsoleProject & { key: IssuedKeyView }> {
  const { project, key } = await createTenantProject(deps.platformDb, deps.secrets, tenantId, {
    name,
    createdBy: context.actorEmail,
  });
  await record(deps.db, context, {
    tenantId,
    projectId: project.id,
    action: 'project.create',
    target: project.id,
    outcome: 'success',
    details: { name, keyId: key.id, publicKey: key.publicKey },
  });
  return { ...toConsoleProject(project), key: { ...toKey(key), secretKey: key.secretKey } };
}

export async function listProjects(platformDb: Knex, tenantId: string): Promise<ConsoleProject[]> {
  return (await listTenantProjects(platformDb, tenantId)).map((p) => toConsoleProject(p));
}

/** A project; a deleted one shows its erasure's progress per service until every service confirmed. */
export async function getProject(deps: ProjectDeps, tenantId: string, projectId: string): Promise<ConsoleProject> {
  const project = await requireProject(deps.platformDb, tenantId, projectId, { deleted: true });
  if (!project.deletedAt) return toConsoleProject(project);
  return toConsoleProject(project, await erasureOf(deps.db, tenantId, projectId));
}

export async function renameProject(
  deps: ProjectDeps,
  context: AuditContext,
  tenantId: string,
  projectId: string,
  name: string,
): Promise<ConsoleProject> {
  await requireProject(deps.platformDb, tenantId, projectId);
  const project = await renameTenantProject(deps.platformDb, tenantId, projectId, name);
  await record(deps.db, context, {
    tenantId,
    projectId,
    action: 'project.rename',
    target: projectId,
    outcome: 'success',
    details: { name },
  });
  return toConsoleProject(project);
}

/**
 * Revokes the project's keys at once (platform directory), then asks the six services to erase
 * its data: the request goes out through the outbox, each service answers `platform.project.erased`.
 */
export async function deleteProject(
  deps: ProjectDeps,
  context: AuditContext,
  tenantId: string,
  projectId: string,
): Promise<ConsoleProject> {
  await requireProject(deps.platformDb, tenantId, projectId);
  const project = await deleteTenantProject(deps.platformDb, tenantId, projectId);
  const erasure = await requestErasure(deps.db, deps.relay, tenantId, projectId);
  await record(deps.db, context, {
    tenantId,
    projectId,
    action: 'project.delete',
    target: projectId,
    outcome: 'success',
  });
  return toConsoleProject(project, erasure);
}
