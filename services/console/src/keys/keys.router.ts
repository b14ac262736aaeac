import type { RequestHandler } from 'express';
import { parse } from '@platform/tenancy';
import { accessOf, auditContextOf } from '../access/access.middleware';
import { createKeyBody, rotateKeyBody } from './keys.schemas';
import * as keys from './keys.service';

type KeyParams = { orgId: string; projectId: string; keyId: string };

export function keyHandlers(deps: keys.KeyDeps) {
  const list: RequestHandler<{ orgId: string; projectId: string }> = async (req, res) => {
    res.json({ keys: await keys.listKeys(deps, accessOf(req).tenantId, req.params.projectId) });
  };

  const create: RequestHandler<{ orgId: string; projectId: string }> = async (req, res) => {
    const { name } = parse(createKeyBody, req.body);
    res
      .status(201)
      .json(await keys.createKey(deps, auditContextOf(req), accessOf(req).tenantId, req.params.projectId, name));
  };

  const rotate: RequestHandler<KeyParams> = async (req, res) => {
    const { oldKeyExpiresInSeconds } = parse(rotateKeyBody, req.body ?? {});
    const { tenantId } = accessOf(req);
    res
      .status(201)
      .json(
        await keys.rotateKey(
          deps,
          auditContextOf(req),
          tenantId,
          req.params.projectId,
          req.params.keyId,
          oldKeyExpiresInSeconds,
        ),
      );
  };

  const revoke: RequestHandler<KeyParams> = async (req, res) => {
    const { tenantId } = accessOf(req);
    res.json(await keys.revokeKey(deps, auditContextOf(req), tenantId, req.params.projectId, req.params.keyId));
  };

  return { list, create, rotate, revoke };
}
