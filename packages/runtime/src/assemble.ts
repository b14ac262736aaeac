import type { Express } from 'express';
import { createHttpApp } from '@platform/http';
import { refuseFloodingAddresses } from '@platform/tenancy';
import { readinessOf } from './readiness';
import type { ServiceDefinition, ServiceDeps, ServiceParts, StopFunction } from './service-definition';

/** A service put together around its deps: its HTTP app and the means to run and release it. */
export interface AssembledService<Shared = unknown> {
  app: Express;
  parts: ServiceParts<Shared>;
  /** Starts the jobs; the function returned stops them all. */
  startJobs(): Promise<StopFunction>;
  /** Releases what `build` made; call after the jobs stopped. */
  close(): Promise<void>;
}

/** The HTTP app of a built service: the shared stack around its routes and document. */
export function httpAppOf(
  deps: ServiceDeps,
  parts: Pick<ServiceParts, 'routes' | 'openapi' | 'metrics' | 'errorShapes' | 'site'>,
): Express {
  return createHttpApp({
    service: deps.service,
    logger: deps.logger,
    openapi: parts.openapi,
    routes: parts.routes,
    metrics: parts.metrics,
    readiness: readinessOf(deps),
    bodyLimit: deps.config.bodyLimit,
    trustProxy: deps.config.trustProxy,
    beforeBody: [refuseFloodingAddresses(deps.directory, { accessTokenKey: deps.jwt.publicKey })],
    errorShapes: parts.errorShapes,
    refusalHolds: deps.config.refusalHolds,
    site: parts.site,
  });
}

/** Starts jobs in order; if one fails to start, those already started are stopped again. */
async function startAll(parts: ServiceParts, deps: ServiceDeps): Promise<StopFunction> {
  const stops: StopFunction[] = [];
  const stopAll: StopFunction = async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  };
  try {
    for (const job of parts.jobs) {
      stops.push(await job.start());
      deps.logger.debug('job started', { job: job.name });
    }
  } catch (error) {
    await stopAll();
    throw error;
  }
  return stopAll;
}

/** Builds a service around its deps; used by the runtime and the test kit. */
export function assembleService<Shared>(
  definition: ServiceDefinition<Shared>,
  deps: ServiceDeps,
): AssembledService<Shared> {
  const parts = definition.build(deps);
  return {
    app: httpAppOf(deps, parts),
    parts,
    startJobs: () => startAll(parts as ServiceParts, deps),
    close: () => parts.close(),
  };
}
