import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse, tenantOf } from '@platform/tenancy';
import { testProvider, type SendingDeps } from '../emails/emails.service';
import { createProviderSchema, testProviderSchema, updateProviderSchema } from './providers.schemas';
import { createProvider, listProviders, updateProvider } from './providers.service';

/** Thin handlers for providers; routes.ts mounts them behind the keys. */
export function providerHandlers(db: Knex, sending: SendingDeps) {
  const create: RequestHandler = async (req, res) => {
    const input = parse(createProviderSchema, req.body);
    res.status(201).json(await createProvider(db, sending.routeSettings.secrets, tenantOf(req), input));
  };
  const list: RequestHandler = async (req, res) => {
    res.json(await listProviders(db, tenantOf(req)));
  };
  const update: RequestHandler<{ id: string }> = async (req, res) => {
    const input = parse(updateProviderSchema, req.body);
    res.json(await updateProvider(db, tenantOf(req), req.params.id, input));
  };
  const test: RequestHandler<{ id: string }> = async (req, res) => {
    const { to } = parse(testProviderSchema, req.body);
    res.json(await testProvider(db, sending, tenantOf(req), req.params.id, to));
  };
  return { create, list, update, test };
}
