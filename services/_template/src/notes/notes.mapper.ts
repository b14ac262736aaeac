import { toIso } from '@platform/tenancy';
import type { NoteRow } from './notes.repository';

/** The Note resource as the API returns it. */
export interface Note {
  id: string;
  title: string;
  body: string;
  createdAt: string;
}

/** Rows become API objects here and nowhere else. */
export function toNote(row: NoteRow): Note {
  return { id: row.id, title: row.title, body: row.body, createdAt: toIso(row.created_at)! };
}
