import { Joi } from '@platform/tenancy';
import type { Jwk } from './jwks';

export const jwksResponse = Joi.object<{ keys: Jwk[] }>({
  keys: Joi.array()
    .items(
      Joi.object<Jwk>({
        kty: Joi.valid('RSA').required(),
        n: Joi.string().required(),
        e: Joi.string().required(),
        kid: Joi.string().required().description('RFC 7638 thumbprint of the key'),
        alg: Joi.valid('RS256').required(),
        use: Joi.valid('sig').required(),
      }),
    )
    .required(),
}).id('Jwks');
