import type { RequestHandler } from 'express';
import { parse, tenantOf } from '@platform/tenancy';
import type { EmailsService } from '../emails/emails.service';
import { createProviderSchema, testProviderSchema } from './providers.schemas';
import type { ProvidersService } from './providers.service';

/** Thin handlers for providers; routes.ts mounts them behind the keys. */
export function providerHandlers(providers: ProvidersService, emails: EmailsService) {
  const create: RequestHandler = async (req, res) => {
    res.status(201).json(await providers.create(tenantOf(req), parse(createProviderSchema, req.body)));
  };
  const list: RequestHandler = async (req, res) => {
    res.json(await providers.list(tenantOf(req)));
  };
  const test: RequestHandler<{ id: string }> = async (req, res) => {
    const { to } = parse(testProviderSchema, req.body);
    res.json(await emails.testProvider(tenantOf(req), req.params.id, to));
  };
  return { create, list, test };
}
