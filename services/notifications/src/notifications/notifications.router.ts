import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse, tenantOf, type Tenant } from '@platform/tenancy';
import {
  createNotificationBody,
  listNotificationsQuery,
  markAllReadQuery,
  userQuery,
  viewerQuery,
} from './notifications.schemas';
import type { ChangeRow } from './notifications.events';
import * as notifications from './notifications.service';

/**
 * Thin handlers: validated input -> service -> response. Errors go to the one error handler.
 * `announce` tells the live streams after a change was committed.
 */
export function notificationHandlers(db: Knex, announce: (tenant: Tenant, changes: ChangeRow[]) => void) {
  const create: RequestHandler = async (req, res) => {
    const input = parse(createNotificationBody, req.body);
    const tenant = tenantOf(req);
    const { result, changes } = await notifications.createNotification(db, tenant, input);
    res.status(201).json(result);
    announce(tenant, changes);
  };

  const list: RequestHandler = async (req, res) => {
    const query = parse(listNotificationsQuery, req.query);
    res.json(await notifications.listNotifications(db, tenantOf(req), query));
  };

  const get: RequestHandler<{ id: string }> = async (req, res) => {
    const { userId } = parse(viewerQuery, req.query);
    res.json(await notifications.getNotification(db, tenantOf(req), req.params.id, userId));
  };

  const markRead: RequestHandler<{ id: string }> = async (req, res) => {
    const { userId } = parse(viewerQuery, req.query);
    const { result, changes } = await notifications.markRead(db, tenantOf(req), req.params.id, userId);
    res.json(result);
    announce(tenantOf(req), changes);
  };

  const markAllRead: RequestHandler = async (req, res) => {
    const { userId } = parse(markAllReadQuery, req.query);
    const { result, changes } = await notifications.markAllRead(db, tenantOf(req), userId);
    res.json(result);
    announce(tenantOf(req), changes);
  };

  const remove: RequestHandler<{ id: string }> = async (req, res) => {
    const { changes } = await notifications.deleteNotification(db, tenantOf(req), req.params.id);
    res.status(204).end();
    announce(tenantOf(req), changes);
  };

  const unreadCount: RequestHandler = async (req, res) => {
    const { userId } = parse(userQuery, req.query);
    res.json(await notifications.unreadCount(db, tenantOf(req), userId));
  };

  return { create, list, get, markRead, markAllRead, remove, unreadCount };
}
