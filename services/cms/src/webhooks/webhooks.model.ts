export type ContentEvent =
  | 'content.created'
  | 'content.updated'
  | 'content.published'
  | 'content.unpublished'
  | 'content.deleted';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'refused';
