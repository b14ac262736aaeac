import { Joi } from '@platform/tenancy';

export interface ListUsersInput {
  email?: string;
  cursor?: string;
  limit: number;
}

export const listUsersSchema = Joi.object<ListUsersInput>({
  email: Joi.string()
    .trim()
    .lowercase()
    .min(1)
    .max(254)
    .description('Only users whose email starts with this text (case-insensitive)'),
  cursor: Joi.string().max(512).description('nextCursor of the previous page; absent for the first page'),
  limit: Joi.number().integer().min(1).max(100).default(20).description('Page size, at most 100'),
});

/** Path parameters: any text; an unknown or malformed id is 404 like a missing one. */
export const userIdParams = Joi.object<{ user_id: string }>({
  user_id: Joi.string().required().description('User id'),
});
