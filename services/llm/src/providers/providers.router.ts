import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse, tenantOf } from '@platform/tenancy';
import { saveProviderSchema, testProviderSchema } from './providers.schemas';
import { getProviders, saveProvider, testProvider, type VendorAccess } from './providers.service';

export function providerHandlers(db: Knex, vendors: VendorAccess): Record<'list' | 'save' | 'test', RequestHandler> {
  return {
    list: async (req, res) => {
      res.json(await getProviders(db, tenantOf(req)));
    },
    save: async (req, res) => {
      res.json(await saveProvider(vendors, tenantOf(req), parse(saveProviderSchema, req.body)));
    },
    test: async (req, res) => {
      res.json(await testProvider(vendors, tenantOf(req), parse(testProviderSchema, req.body)));
    },
  };
}
