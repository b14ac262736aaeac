import { Joi, pageSchema } from '@platform/tenancy';

export interface ListNewsQuery {
  category?: string;
  limit: number;
  offset: number;
}

export const listNewsQuerySchema = Joi.object<ListNewsQuery>({
  category: Joi.string().trim().min(1).max(100),
  ...pageSchema(10),
});
