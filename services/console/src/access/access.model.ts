import type { Role } from './roles';

/** The signed-in member: a user of the console's reserved project. */
export interface Member {
  userId: string;
  email: string;
}

/** The member's standing in the organisation a route names. */
export interface OrgAccess {
  tenantId: string;
  role: Role;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      consoleMember?: Member;
      consoleAccess?: OrgAccess;
    }
  }
}
