#!/usr/bin/env node
/**
 * Docker HEALTHCHECK: GET /healthz on this container's port (PORT, or the service's default
 * port from PLATFORM_SERVICE). Exit 0 when it answers 200 within 2 s, 1 otherwise.
 */
const DEFAULT_PORTS = { auth: 4001, billing: 4002, cms: 4003, llm: 4004, mailer: 4005, notifications: 4006 };
const port = process.env.PORT || DEFAULT_PORTS[process.env.PLATFORM_SERVICE ?? ''] || 8080;

fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) })
  .then((res) => process.exit(res.status === 200 ? 0 : 1))
  .catch(() => process.exit(1));
