import type { RequestHandler } from 'express';
import { parse } from '@platform/tenancy';
import { accessOf, auditContextOf } from '../access/access.middleware';
import { projectBody } from './projects.schemas';
import * as projects from './projects.service';

type ProjectParams = { orgId: string; projectId: string };

export function projectHandlers(deps: projects.ProjectDeps) {
  const create: RequestHandler = async (req, res) => {
    const { name } = parse(projectBody, req.body);
    res.status(201).json(await projects.createProject(deps, auditContextOf(req), accessOf(req).tenantId, name));
  };

  const list: RequestHandler = async (req, res) => {
    res.json({ projects: await projects.listProjects(deps.platformDb, accessOf(req).tenantId) });
  };

  const get: RequestHandler<ProjectParams> = async (req, res) => {
    res.json(await projects.getProject(deps, accessOf(req).tenantId, req.params.projectId));
  };

  const rename: RequestHandler<ProjectParams> = async (req, res) => {
    const { name } = parse(projectBody, req.body);
    res.json(
      await projects.renameProject(deps, auditContextOf(req), accessOf(req).tenantId, req.params.projectId, name),
    );
  };

  const remove: RequestHandler<ProjectParams> = async (req, res) => {
    res
      .status(202)
      .json(await projects.deleteProject(deps, auditContextOf(req), accessOf(req).tenantId, req.params.projectId));
  };

  return { create, list, get, rename, remove };
}
