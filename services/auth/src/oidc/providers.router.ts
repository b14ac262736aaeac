import type { RequestHandler } from 'express';
import { parse, tenantOf } from '@platform/tenancy';
import { clientOf } from '../shared/client';
import { createProviderSchema, providerNameParams, updateProviderSchema } from './providers.schemas';
import {
  changeProvider,
  createProvider,
  getProvider,
  listProjectProviders,
  removeProvider,
  type ProviderDeps,
} from './providers.service';

/** The project's OpenID Connect providers (the builder's server or console, with the keys). */
export function providerHandlers(
  deps: ProviderDeps,
): Record<'create' | 'list' | 'get' | 'update' | 'remove', RequestHandler> {
  const nameOf = (params: unknown) => parse(providerNameParams, params).name;
  return {
    create: async (req, res) => {
      res
        .status(201)
        .json(await createProvider(deps, tenantOf(req), parse(createProviderSchema, req.body), clientOf(req)));
    },
    list: async (req, res) => {
      res.json(await listProjectProviders(deps, tenantOf(req)));
    },
    get: async (req, res) => {
      res.json(await getProvider(deps, tenantOf(req), nameOf(req.params)));
    },
    update: async (req, res) => {
      const changes = parse(updateProviderSchema, req.body);
      res.json(await changeProvider(deps, tenantOf(req), nameOf(req.params), changes, clientOf(req)));
    },
    remove: async (req, res) => {
      await removeProvider(deps, tenantOf(req), nameOf(req.params), clientOf(req));
      res.status(204).end();
    },
  };
}
