import type { Request, RequestHandler } from 'express';
import { parse, tenantOf } from '@platform/tenancy';
import type { BillingContext } from '../shared/context';
import { environmentOf } from '../shared/environment';
import { scopeOf } from '../shared/scope';
import {
  createCustomerSchema,
  customerIdSchema,
  listCustomersQuerySchema,
  updateCustomerSchema,
} from './customers.schemas';
import { createCustomer, deleteCustomer, getCustomer, listCustomers, updateCustomer } from './customers.service';

const scopeOfRequest = (req: Request) => scopeOf(tenantOf(req), environmentOf(req));
const idOf = (req: Request) => parse(customerIdSchema, req.params.id);

export function customerHandlers(
  ctx: BillingContext,
): Record<'create' | 'list' | 'get' | 'update' | 'remove', RequestHandler> {
  return {
    create: async (req, res) => {
      const input = parse(createCustomerSchema, req.body);
      res.status(201).json(await createCustomer(ctx, scopeOfRequest(req), input));
    },
    list: async (req, res) => {
      const query = parse(listCustomersQuerySchema, req.query);
      res.json(await listCustomers(ctx, scopeOf(tenantOf(req), query.environment), query));
    },
    get: async (req, res) => {
      res.json(await getCustomer(ctx, scopeOfRequest(req), idOf(req)));
    },
    update: async (req, res) => {
      const input = parse(updateCustomerSchema, req.body);
      res.json(await updateCustomer(ctx, scopeOfRequest(req), idOf(req), input));
    },
    remove: async (req, res) => {
      res.json(await deleteCustomer(ctx, scopeOfRequest(req), idOf(req)));
    },
  };
}
