import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse, tenantOf } from '@platform/tenancy';
import { createNotificationBody, listNotificationsQuery, markAllReadQuery, viewerQuery } from './notifications.schemas';
import * as notifications from './notifications.service';

/** Thin handlers: validated input -> service -> response. Errors go to the one error handler. */
export function notificationHandlers(db: Knex) {
  const create: RequestHandler = async (req, res) => {
    const input = parse(createNotificationBody, req.body);
    res.status(201).json(await notifications.createNotification(db, tenantOf(req), input));
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
    res.json(await notifications.markRead(db, tenantOf(req), req.params.id, userId));
  };

  const markAllRead: RequestHandler = async (req, res) => {
    const { userId } = parse(markAllReadQuery, req.query);
    res.json(await notifications.markAllRead(db, tenantOf(req), userId));
  };

  const remove: RequestHandler<{ id: string }> = async (req, res) => {
    await notifications.deleteNotification(db, tenantOf(req), req.params.id);
    res.status(204).end();
  };

  return { create, list, get, markRead, markAllRead, remove };
}
