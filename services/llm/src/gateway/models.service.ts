import type { Knex } from 'knex';
import type { Tenant } from '@platform/tenancy';
import { configuredProviders } from '../providers/providers.service';
import { PRICE_TABLE_VERSION, PRICES } from '../usage/price-table';
import { providerOfModel } from '../vendors/routing';

// Every model of the price table has the table's date as its `created`: the vendors' own dates are not ours to know.
const CREATED = Math.floor(Date.parse(PRICE_TABLE_VERSION) / 1000);

/** OpenAI's model list: the priced models of the vendors this project has configured. */
export async function listModels(db: Knex, tenant: Tenant) {
  const providers = new Set(await configuredProviders(db, tenant));
  const data = Object.keys(PRICES)
    .filter((id) => providers.has(providerOfModel(id)!))
    .map((id) => ({ id, object: 'model' as const, created: CREATED, owned_by: providerOfModel(id)! }));
  return { object: 'list' as const, data };
}
