/**
 * The deployment files as the stock tools read them: `kubectl kustomize` renders the k8s/
 * overlays, `docker compose config` (or Debian's `docker-compose`, which needs no engine for
 * `config`) interpolates and validates docker-compose.yml. A test file that needs a missing tool
 * fails with a sentence saying which tool and how to get it: the checks are never skipped.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { REPO_ROOT } from './paths';

export type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
};

const runs = (command: string, args: string[]) => spawnSync(command, args, { encoding: 'utf8' }).status === 0;

const kubectlMissing = runs('kubectl', ['kustomize', '--help'])
  ? undefined
  : 'kubectl (with its built-in kustomize) is not installed: the k8s/ checks need it (https://kubernetes.io/docs/tasks/tools/)';

/** The manifests `kubectl kustomize <dir>` renders. */
export function kustomize(dir: string): Manifest[] {
  if (kubectlMissing) throw new Error(kubectlMissing);
  const output = execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return parseAllDocuments(output)
    .map((doc) => doc.toJS({ maxAliasCount: -1 }) as Manifest | null)
    .filter((m): m is Manifest => m !== null);
}

/** `docker compose` when the plugin answers, else Debian's docker-compose (the same `config`). */
const COMPOSE: [string, string[]] | undefined = runs('docker', ['compose', 'version'])
  ? ['docker', ['compose']]
  : runs('docker-compose', ['version'])
    ? ['docker-compose', []]
    : undefined;

const composeMissing = COMPOSE
  ? undefined
  : 'neither `docker compose` nor `docker-compose` is installed: the compose checks need one (apt-get install docker-compose)';

export type ComposeService = {
  image?: string;
  build?: { context?: string; dockerfile?: string; target?: string; args?: Record<string, string> };
  command?: string[] | string;
  entrypoint?: string[] | string;
  environment?: Record<string, string | null>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] | string };
  ports?: (string | { target: number; published: number | string; host_ip?: string })[];
  volumes?: (string | { type: string; source: string; target: string })[];
  restart?: string;
  read_only?: boolean;
  [key: string]: unknown;
};
export type ComposeFile = { services: Record<string, ComposeService>; [key: string]: unknown };

/**
 * `config` of the compose file with the variables of `envFile` only (none of this process's
 * environment): the file as Compose runs it, or the tool's error when it refuses.
 */
export function composeConfig(envFile: string): { config?: ComposeFile; error?: string } {
  if (!COMPOSE) throw new Error(composeMissing);
  const [command, prefix] = COMPOSE;
  const result = spawnSync(
    command,
    [...prefix, '--env-file', envFile, '-f', path.join(REPO_ROOT, 'docker-compose.yml'), 'config'],
    { encoding: 'utf8', cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' } },
  );
  if (result.status !== 0) return { error: `${result.stderr}${result.stdout}` };
  return { config: parse(result.stdout, { maxAliasCount: -1 }) as ComposeFile };
}

/** The services `docker compose up <name>` starts: the name and everything it depends on. */
export function dependencyClosure(compose: ComposeFile, name: string): Set<string> {
  const seen = new Set<string>();
  const visit = (service: string) => {
    if (seen.has(service)) return;
    seen.add(service);
    for (const dep of Object.keys(compose.services[service]?.depends_on ?? {})) visit(dep);
  };
  visit(name);
  return seen;
}

/** Every non-empty YAML document of a file (a file may hold several, separated by `---`). */
export function readYamlDocuments(file: string): unknown[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((doc) => doc.toJS({ maxAliasCount: -1 }) as unknown)
    .filter((doc) => doc !== null && doc !== undefined);
}
