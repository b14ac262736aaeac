import { succeeded } from '@platform/contract';
import { Joi } from '@platform/tenancy';
import { environmentValue, nullableStr, str } from '../shared/responses';
import type { AccountStatus } from './account.mapper';

const strings = () => Joi.array().items(str());

export const accountStatusResponse = succeeded<AccountStatus>(Joi, {
  configured: Joi.boolean().required(),
  ready: Joi.boolean().required().description('Charges and payouts enabled and the account not disabled'),
  account: Joi.object({
    id: str().required(),
    email: nullableStr().required(),
    country: nullableStr().required(),
    default_currency: nullableStr().required(),
    charges_enabled: Joi.boolean().required(),
    payouts_enabled: Joi.boolean().required(),
    details_submitted: Joi.boolean().required(),
    type: nullableStr().required(),
  })
    .allow(null)
    .required(),
  requirements: Joi.object({
    currently_due: strings().required(),
    eventually_due: strings().required(),
    past_due: strings().required(),
    disabled_reason: nullableStr().required(),
  }).required(),
  issues: strings().required().description('What keeps the account from charging or paying out, in words'),
  environment: environmentValue().required(),
}).id('AccountStatus');
