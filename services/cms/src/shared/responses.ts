import { Joi } from '@platform/tenancy';

/** Response-schema pieces the features share. */
export const timestamp = () => Joi.string().meta({ format: 'date-time' });
export const scheduled = (description: string) =>
  Joi.string().allow(null).meta({ format: 'date-time' }).description(description);
export const kinds = () => Joi.string().valid('blog', 'faq', 'page', 'custom');
export const statuses = () =>
  Joi.string()
    .valid('draft', 'published', 'archived')
    .description(
      'draft (not public), published (live), archived (hidden, retained). Any status may move to any other.',
    );
export const slugResponse = () =>
  Joi.string()
    .pattern(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
    .max(200)
    .description('Unique per project and type.');
export const contentEvents = () =>
  Joi.string().valid(
    'content.created',
    'content.updated',
    'content.published',
    'content.unpublished',
    'content.deleted',
  );

/** A page of `items` under `name`, with the total and the page asked for. */
export const pageOf = (name: string, items: Joi.Schema) =>
  Joi.object({
    [name]: Joi.array().items(items).required(),
    total: Joi.number().integer().required(),
    limit: Joi.number().integer().required(),
    offset: Joi.number().integer().required(),
  });
