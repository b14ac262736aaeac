import type { Request, RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse, tenantOf } from '@platform/tenancy';
import { environmentOf } from '../shared/environment';
import { environmentTenantOf } from '../shared/environment-tenant';
import type { StripeClients } from '../stripe/stripe-clients';
import {
  createCustomerSchema,
  customerIdSchema,
  listCustomersQuerySchema,
  updateCustomerSchema,
} from './customers.schemas';
import * as customers from './customers.service';

const scopeOfRequest = (req: Request) => environmentTenantOf(tenantOf(req), environmentOf(req));
const idOf = (req: Request) => parse(customerIdSchema, req.params.id);

export function customerHandlers(
  db: Knex,
  clients: StripeClients,
): Record<'create' | 'list' | 'get' | 'update' | 'remove', RequestHandler> {
  return {
    create: async (req, res) => {
      const input = parse(createCustomerSchema, req.body);
      res.status(201).json(await customers.createCustomer(db, clients, scopeOfRequest(req), input));
    },
    list: async (req, res) => {
      const query = parse(listCustomersQuerySchema, req.query);
      res.json(
        await customers.listCustomers(db, clients, environmentTenantOf(tenantOf(req), query.environment), query),
      );
    },
    get: async (req, res) => {
      res.json(await customers.getCustomer(db, clients, scopeOfRequest(req), idOf(req)));
    },
    update: async (req, res) => {
      const input = parse(updateCustomerSchema, req.body);
      res.json(await customers.updateCustomer(db, clients, scopeOfRequest(req), idOf(req), input));
    },
    remove: async (req, res) => {
      res.json(await customers.deleteCustomer(db, clients, scopeOfRequest(req), idOf(req)));
    },
  };
}
