import bytes from 'bytes';
import express, { type RequestHandler } from 'express';
import { ownBodyReader, rejectLoneSurrogates } from '@platform/tenancy';
import { directJsonBodies } from './performance';

/** Reads a JSON body up to `limit`, keeps its bytes as `rawBody`, and refuses lone surrogates (in the query too). */
export function jsonBodyReader(limit: string | number, direct = true): RequestHandler {
  const bodyParser = express.json({
    limit,
    verify: (req, _res, buf) => {
      (req as unknown as { rawBody: Buffer }).rawBody = buf;
    },
  });
  const parse = direct ? directJsonBodies(bodyParser, bytes.parse(limit) ?? Infinity) : bodyParser;
  return (req, res, next) => {
    parse(req, res, (error?: unknown) => (error ? next(error) : rejectLoneSurrogates(req, res, next)));
  };
}

/** A public route's own JSON reader, bounded tighter than the service's `BODY_LIMIT`. */
export const boundedJsonBody = (limit: string | number): RequestHandler => ownBodyReader(jsonBodyReader(limit));

/**
 * A route's own reader of the body as bytes (`req.body` a Buffer, whatever the content type), up
 * to `limit`: for a vendor that signs the raw body, checked before anything parses it.
 */
export const boundedRawBody = (limit: string | number): RequestHandler =>
  ownBodyReader(express.raw({ type: () => true, limit }));
