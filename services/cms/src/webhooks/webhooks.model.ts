export type ContentEvent =
  | 'content.created'
  | 'content.updated'
  | 'content.published'
  | 'content.unpublished'
  | 'content.deleted';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'refused';

export interface NewWebhook {
  id: string;
  url: string;
  events: ContentEvent[];
}

/** One queued delivery: the body is fixed when it is queued, so every attempt sends the same bytes. */
export interface NewDelivery {
  id: string;
  webhookId: string;
  event: ContentEvent;
  url: string;
  body: string;
}
