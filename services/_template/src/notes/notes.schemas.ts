import { Joi } from '@platform/tenancy';
import type { NewNote } from './notes.repository';

/** The request body of POST /notes; the longest body comes from the service's config. */
export function createNoteBody(maxBodyLength: number): Joi.ObjectSchema<NewNote> {
  return Joi.object<NewNote>({
    title: Joi.string().min(1).max(255).required(),
    body: Joi.string().min(1).max(maxBodyLength).required(),
  });
}

export const noteIdParams = Joi.object<{ id: string }>({ id: Joi.string().required().description('Note id') });
