import { Joi } from '@platform/tenancy';

/** Response-schema pieces the features share. */
export const str = () => Joi.string();
export const nullableStr = () => Joi.string().allow(null);
export const environmentValue = () => Joi.string().valid('test', 'live');
