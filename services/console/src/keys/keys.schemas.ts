import { Joi } from '@platform/tenancy';

export const createKeyBody = Joi.object<{ name: string }>({
  name: Joi.string()
    .trim()
    .pattern(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,62}$/)
    .required(),
});

/** `oldKeyExpiresInSeconds`: the old pair stops working then (default: only when revoked). */
export const rotateKeyBody = Joi.object<{ oldKeyExpiresInSeconds?: number }>({
  oldKeyExpiresInSeconds: Joi.number()
    .integer()
    .min(0)
    .max(90 * 86_400),
});
