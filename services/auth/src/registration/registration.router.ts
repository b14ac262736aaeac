import type { RequestHandler } from 'express';
import { parse, tenantOf } from '@platform/tenancy';
import type { AuthContext } from '../context';
import { registerSchema } from './registration.schemas';
import { register } from './registration.service';

export function registrationHandlers(ctx: AuthContext): Record<'register', RequestHandler> {
  return {
    register: async (req, res) => {
      const { metadata = {}, ...input } = parse(registerSchema, req.body);
      const acceptLanguage = req.get('accept-language');
      res.status(201).json(await register(ctx, tenantOf(req), { ...input, metadata, acceptLanguage }));
    },
  };
}
