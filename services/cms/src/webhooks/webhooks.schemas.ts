import { Joi, pageSchema, webUrl, type Page } from '@platform/tenancy';
import type { ContentEvent } from './webhooks.repository';

export const CONTENT_EVENTS: ContentEvent[] = [
  'content.created',
  'content.updated',
  'content.published',
  'content.unpublished',
  'content.deleted',
];

export interface CreateWebhookInput {
  url: string;
  events: ContentEvent[];
}

export const createWebhookSchema = Joi.object<CreateWebhookInput>({
  url: webUrl().required(),
  events: Joi.array()
    .items(Joi.string().valid(...CONTENT_EVENTS))
    .min(1)
    .unique()
    .required(),
});

export const listDeliveriesQuerySchema = Joi.object<Page>({ ...pageSchema(20) });
