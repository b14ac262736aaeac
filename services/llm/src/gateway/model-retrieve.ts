import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { tenantOf, type Tenant } from '@platform/tenancy';
import { listModels } from './models.service';
import { ModelNotFoundError } from './model-not-found';

/** OpenAI's model object for one model of the project's list (GET /models), or 404 `model_not_found`. */
export async function retrieveModel(db: Knex, tenant: Tenant, id: string) {
  const { data } = await listModels(db, tenant);
  const model = data.find((entry) => entry.id === id);
  if (!model) throw new ModelNotFoundError(id);
  return model;
}

/** GET /models/{model}. */
export function retrieveModelHandler(db: Knex): RequestHandler {
  return async (req, res) => {
    res.json(await retrieveModel(db, tenantOf(req), String(req.params.model)));
  };
}
