import type { RequestHandler } from 'express';
import type { ServiceDeps } from '@platform/runtime';
import { parse, tenantOf } from '@platform/tenancy';
import type { LlmShared } from '../llm-shared';
import { saveProviderSchema, testProviderSchema } from './providers.schemas';
import { getProviders, saveProvider, testProvider } from './providers.service';

export function providerHandlers(
  deps: ServiceDeps,
  runtime: LlmShared,
): Record<'list' | 'save' | 'test', RequestHandler> {
  return {
    list: async (req, res) => {
      res.json(await getProviders(deps.db, tenantOf(req)));
    },
    save: async (req, res) => {
      res.json(await saveProvider(deps, runtime, tenantOf(req), parse(saveProviderSchema, req.body)));
    },
    test: async (req, res) => {
      res.json(await testProvider(deps, runtime, tenantOf(req), parse(testProviderSchema, req.body)));
    },
  };
}
