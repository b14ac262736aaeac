import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse, tenantOf } from '@platform/tenancy';
import { createWebhookSchema, listDeliveriesQuerySchema } from './webhooks.schemas';
import * as webhooks from './webhooks.service';
import type { WebhookLimits } from './webhooks.service';

/** Thin handlers: validated input -> service -> JSON. */
export function webhookHandlers(
  db: Knex,
  relay: { kick(): void },
  limits: WebhookLimits,
): Record<'create' | 'list' | 'remove' | 'deliveries' | 'redeliver', RequestHandler> {
  return {
    create: async (req, res) => {
      const input = parse(createWebhookSchema, req.body);
      res.status(201).json(await webhooks.createWebhook(db, limits, tenantOf(req), input));
    },
    list: async (req, res) => {
      res.json(await webhooks.listWebhooks(db, tenantOf(req)));
    },
    remove: async (req, res) => {
      await webhooks.removeWebhook(db, tenantOf(req), String(req.params.id));
      res.status(204).end();
    },
    deliveries: async (req, res) => {
      const page = parse(listDeliveriesQuerySchema, req.query);
      res.json(await webhooks.listDeliveries(db, tenantOf(req), String(req.params.id), page));
    },
    redeliver: async (req, res) => {
      const { id, deliveryId } = req.params;
      res.status(202).json(await webhooks.redeliver(db, relay, tenantOf(req), String(id), String(deliveryId)));
    },
  };
}
