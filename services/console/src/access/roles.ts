/** The roles of an organisation's members, strongest first. */
export const ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { viewer: 0, developer: 1, admin: 2, owner: 3 };

/**
 * The weakest role allowed each act. `owner`: everything; `admin`: projects, keys and members
 * except owners (checked again where the target is an owner); `developer`: configure and use
 * the services, see public keys; `viewer`: read only.
 */
export const PERMISSIONS = {
  'organisation.read': 'viewer',
  'organisation.rename': 'owner',
  'organisation.delete': 'owner',
  'members.read': 'viewer',
  'members.manage': 'admin',
  'invitations.manage': 'admin',
  'projects.read': 'viewer',
  'projects.manage': 'admin',
  'keys.read': 'developer',
  'keys.manage': 'admin',
  'settings.read': 'viewer',
  'settings.write': 'developer',
  'member-token.issue': 'viewer',
  'audit.read': 'admin',
} as const satisfies Record<string, Role>;

export type Permission = keyof typeof PERMISSIONS;

export const allows = (role: Role, permission: Permission): boolean => RANK[role] >= RANK[PERMISSIONS[permission]];

/** Whether `actor` may give or take away `role` (only an owner touches owners). */
export const mayManageRole = (actor: Role, role: Role): boolean => actor === 'owner' || RANK[role] < RANK.owner;
