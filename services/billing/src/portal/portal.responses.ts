import { succeeded } from '@platform/contract';
import { Joi } from '@platform/tenancy';
import { nullableStr, str } from '../shared/responses';

export const portalCreatedResponse = succeeded(Joi, {
  session: Joi.object({
    id: str().required(),
    url: str().required(),
    customer: str().required(),
    return_url: nullableStr().required(),
  }).required(),
}).id('PortalSessionCreated');
