import { Joi } from '@platform/tenancy';
import type { ManagedUser } from '../users/users.mapper';
import { userLookupResponse } from '../users/users.responses';

export const managedUserResponse = (userLookupResponse as unknown as Joi.ObjectSchema<ManagedUser>)
  .keys({
    disabled: Joi.boolean().required().description('A disabled user cannot log in or refresh'),
    disabledAt: Joi.string().allow(null).required().meta({ format: 'date-time' }),
  })
  .id('ManagedUser');

export const managedUserEnvelopeResponse = Joi.object({ user: managedUserResponse.required() });

export const userPageResponse = Joi.object({
  users: Joi.array().items(managedUserResponse).required(),
  nextCursor: Joi.string()
    .allow(null)
    .required()
    .description('Pass as cursor for the next page; null on the last page'),
});
