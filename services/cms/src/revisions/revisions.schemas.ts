import { Joi, pageSchema, type Page } from '@platform/tenancy';

export const listRevisionsQuerySchema = Joi.object<Page>({ ...pageSchema(20) });

/** A revision number in the path: a positive integer, else 404 like any unknown revision. */
export function revisionNumber(raw: string): number | null {
  return /^[1-9][0-9]{0,8}$/.test(raw) ? Number(raw) : null;
}
