/** What a role may do in the console's pages: no button is shown that the control plane would refuse. */
import type { Role } from './api';

const RANK: Record<Role, number> = { viewer: 0, developer: 1, admin: 2, owner: 3 };
const atLeast = (role: Role | undefined, weakest: Role) => role !== undefined && RANK[role] >= RANK[weakest];

export const may = (role: Role | undefined) => ({
  manageProjects: atLeast(role, 'admin'),
  manageMembers: atLeast(role, 'admin'),
  readKeys: atLeast(role, 'developer'),
  manageKeys: atLeast(role, 'admin'),
  writeSettings: atLeast(role, 'developer'),
  readAudit: atLeast(role, 'admin'),
  renameOrganisation: atLeast(role, 'owner'),
  deleteOrganisation: atLeast(role, 'owner'),
});

export const ROLES: readonly Role[] = ['owner', 'admin', 'developer', 'viewer'];
