import type { Knex } from 'knex';
import { SETTING_NAMES, setSettings } from '@platform/directory';
import type { ProjectSettings } from '@platform/tenancy';
import type { AuditContext } from '../audit/audit.model';
import { record } from '../audit/audit.service';
import { requireProject } from '../projects/projects.service';

/** A project's settings, every known one named (unset ones null). */
export interface SettingsView {
  settings: ProjectSettings;
  known: readonly string[];
}

export async function getSettings(platformDb: Knex, tenantId: string, projectId: string): Promise<SettingsView> {
  const project = await requireProject(platformDb, tenantId, projectId);
  return { settings: project.settings, known: SETTING_NAMES };
}

/** Validated exactly as `pnpm admin set-setting` validates (the directory's `validateSetting`). */
export async function updateSettings(
  deps: { db: Knex; platformDb: Knex },
  context: AuditContext,
  tenantId: string,
  projectId: string,
  changes: Record<string, unknown>,
): Promise<SettingsView> {
  await requireProject(deps.platformDb, tenantId, projectId);
  const { settings } = await setSettings(deps.platformDb, projectId, changes);
  await record(deps.db, context, {
    tenantId,
    projectId,
    action: 'settings.update',
    target: projectId,
    outcome: 'success',
    details: { changed: Object.keys(changes) },
  });
  return { settings, known: SETTING_NAMES };
}
