import type { TenantProjectRecord } from '@platform/directory';
import { toIso, type ProjectSettings } from '@platform/tenancy';
import type { Erasure } from '../erasure/erasure.mapper';

/** A project as the API returns it. */
export interface ConsoleProject {
  id: string;
  organisationId: string;
  name: string;
  settings: ProjectSettings;
  createdAt: string;
  status: 'active' | 'deleting' | 'deleted';
  deletedAt: string | null;
  erasure: Erasure | null;
}

export function toConsoleProject(project: TenantProjectRecord, erasure: Erasure | null = null): ConsoleProject {
  return {
    id: project.id,
    organisationId: project.tenantId,
    name: project.name,
    settings: project.settings,
    createdAt: toIso(project.createdAt)!,
    status: project.deletedAt ? (erasure?.complete ? 'deleted' : 'deleting') : 'active',
    deletedAt: toIso(project.deletedAt),
    erasure,
  };
}
