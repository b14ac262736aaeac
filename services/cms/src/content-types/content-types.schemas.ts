import { Joi } from '@platform/tenancy';

export interface CreateContentTypeInput {
  name: string;
  description?: string | null;
  schema: Record<string, unknown>;
}

export interface UpdateContentTypeInput {
  description?: string | null;
  schema?: Record<string, unknown>;
}

const description = Joi.string().trim().max(2_000).allow('', null);

export const createContentTypeSchema = Joi.object<CreateContentTypeInput>({
  name: Joi.string().trim().min(1).max(100).required(),
  description,
  schema: Joi.object().required(),
});

export const updateContentTypeSchema = Joi.object<UpdateContentTypeInput>({
  description,
  schema: Joi.object(),
});
