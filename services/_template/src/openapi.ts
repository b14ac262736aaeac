/** The Template service's contract: every operation, its request schemas (the routes' own) and responses. */
import { buildContractDocument, json, KEYS, type OperationDefinition } from '@platform/contract';
import { loadTemplateConfig } from './config';
import { noteResponse } from './notes/notes.responses';
import { createNoteBody, noteIdParams } from './notes/notes.schemas';

// The document shows the default limit; a deployment's own comes from its configuration.
const defaults = loadTemplateConfig({});

const operations: OperationDefinition[] = [
  {
    method: 'post',
    path: '/notes',
    operationId: 'createNote',
    summary: 'Create a note for the calling project',
    security: KEYS,
    request: { body: createNoteBody(defaults.maxBodyLength) },
    responses: { 201: json('The note', noteResponse) },
    errors: [400, 401],
  },
  {
    method: 'get',
    path: '/notes/{id}',
    operationId: 'getNote',
    summary: 'One note of the calling project',
    security: KEYS,
    request: { params: noteIdParams },
    responses: { 200: json('The note', noteResponse) },
    errors: [401, 404],
  },
];

export const openapi = buildContractDocument({
  title: 'Template service',
  description: 'The service shape as a tiny example (docs/service-shape.md). All paths start with /v1.',
  operations,
});
