import type { RequestHandler } from 'express';
import { parse, tenantOf } from '@platform/tenancy';
import { createWebhookSchema, listDeliveriesQuerySchema } from './webhooks.schemas';
import type { WebhooksService } from './webhooks.service';

/** Thin handlers: validated input -> service -> JSON. */
export function webhookHandlers(service: WebhooksService): Record<string, RequestHandler> {
  return {
    create: async (req, res) => {
      res.status(201).json(await service.create(tenantOf(req), parse(createWebhookSchema, req.body)));
    },
    list: async (req, res) => {
      res.json(await service.list(tenantOf(req)));
    },
    remove: async (req, res) => {
      await service.remove(tenantOf(req), String(req.params.id));
      res.status(204).end();
    },
    deliveries: async (req, res) => {
      const page = parse(listDeliveriesQuerySchema, req.query);
      res.json(await service.deliveries(tenantOf(req), String(req.params.id), page));
    },
    redeliver: async (req, res) => {
      res
        .status(202)
        .json(await service.redeliver(tenantOf(req), String(req.params.id), String(req.params.deliveryId)));
    },
  };
}
