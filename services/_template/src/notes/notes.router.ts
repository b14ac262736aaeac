import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse, tenantOf } from '@platform/tenancy';
import type { TemplateConfig } from '../config';
import { createNoteBody } from './notes.schemas';
import * as notes from './notes.service';

/** Thin handlers: validated input -> service -> response; errors go to the one error handler. */
export function noteHandlers(db: Knex, relay: { kick(): void }, config: TemplateConfig) {
  const createBody = createNoteBody(config.maxBodyLength);

  const create: RequestHandler = async (req, res) => {
    const input = parse(createBody, req.body);
    res.status(201).json(await notes.createNote(db, relay, tenantOf(req), input));
  };

  const get: RequestHandler<{ id: string }> = async (req, res) => {
    res.json(await notes.getNote(db, tenantOf(req), req.params.id));
  };

  return { create, get };
}
