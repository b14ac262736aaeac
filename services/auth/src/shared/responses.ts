import { succeeded } from '@platform/contract';
import { Joi } from '@platform/tenancy';

/** Logout, password and verification endpoints answer with a message. */
export const messageResponse = succeeded(Joi, { message: Joi.string().required() }).id('Message');
