import { toIso } from '@platform/tenancy';
import type { RevisionRow } from './revisions.repository';

export const toRevision = (row: RevisionRow) => ({ ...row, createdAt: toIso(row.createdAt) as string });

export type Revision = ReturnType<typeof toRevision>;
