import { Joi } from '@platform/tenancy';
import { customerIdSchema } from '../customers/customers.schemas';
import { urlSchema } from '../shared/urls';

export interface CreatePortalInput {
  customer?: string;
  return_url: string;
}

/** `customer` is optional: without it, the signed-in user's own customer is used. */
export const createPortalSchema = Joi.object<CreatePortalInput>({
  customer: customerIdSchema.description("The signed-in user's own customer (404 for any other); the default"),
  return_url: urlSchema().required(),
}).id('PortalSessionInput');
