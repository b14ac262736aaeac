import { Joi } from '@platform/tenancy';
import type { Note } from './notes.mapper';

/** Typed by the mapper's view, so a key the view lacks does not compile. */
export const noteResponse = Joi.object<Note>({
  id: Joi.string().guid().required(),
  title: Joi.string().required(),
  body: Joi.string().required(),
  createdAt: Joi.string().meta({ format: 'date-time' }).required(),
}).id('Note');
