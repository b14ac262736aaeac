/**
 * What `docker compose config` does before it validates, for CI machines without Docker:
 * YAML merge keys, `.env` files and `${VAR}` interpolation (Compose specification rules).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export type ComposeFile = {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
  [key: string]: unknown;
};

export type ComposeService = {
  image?: string;
  build?: { context?: string; dockerfile?: string; target?: string; args?: Record<string, string> };
  command?: string[] | string;
  entrypoint?: string[] | string;
  environment?: Record<string, string | null>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] | string; interval?: string; start_period?: string };
  ports?: string[];
  volumes?: string[];
  restart?: string;
  read_only?: boolean;
  stop_grace_period?: string;
  [key: string]: unknown;
};

/** The compose file as YAML (merge keys resolved), before interpolation. */
export function readCompose(file: string): ComposeFile {
  return parse(readFileSync(file, 'utf8'), { merge: true, maxAliasCount: -1 }) as ComposeFile;
}

/** A `.env` file: KEY=value lines; single quotes keep the value literal, double quotes too here. */
export function parseDotenv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq < 0) throw new Error(`.env line without "=": ${line}`);
    let value = line.slice(eq + 1).trim();
    if ((value.startsWith("'") && value.endsWith("'")) || (value.startsWith('"') && value.endsWith('"')))
      value = value.slice(1, -1);
    env[line.slice(0, eq).trim()] = value;
  }
  return env;
}

export class InterpolationError extends Error {}

/**
 * Compose interpolation of one string: `$$`, `$VAR`, `${VAR}`, `${VAR:-default}`,
 * `${VAR-default}`, `${VAR:?message}`, `${VAR?message}`, `${VAR:+alt}`.
 */
export function interpolate(value: string, env: Record<string, string | undefined>): string {
  return value.replace(
    /\$\$|\$\{([^}]+)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (match, braced: string | undefined, bare: string | undefined) => {
      if (match === '$$') return '$';
      if (bare) return env[bare] ?? '';
      const expr = braced!;
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])(.*))?$/s.exec(expr);
      if (!m) throw new InterpolationError(`invalid interpolation "${match}"`);
      const [, name, op, arg = ''] = m;
      const current = env[name];
      const unsetOrEmpty = current === undefined || current === '';
      switch (op) {
        case undefined:
          return current ?? '';
        case ':-':
          return unsetOrEmpty ? interpolate(arg, env) : current;
        case '-':
          return current === undefined ? interpolate(arg, env) : current;
        case ':?':
          if (unsetOrEmpty) throw new InterpolationError(`required variable ${name} is missing a value: ${arg}`);
          return current;
        case '?':
          if (current === undefined)
            throw new InterpolationError(`required variable ${name} is missing a value: ${arg}`);
          return current;
        case ':+':
          return unsetOrEmpty ? '' : interpolate(arg, env);
        default:
          throw new InterpolationError(`invalid interpolation "${match}"`);
      }
    },
  );
}

/** Interpolates every string in the file (keys are left alone, as in Compose). */
export function interpolateAll<T>(node: T, env: Record<string, string | undefined>): T {
  if (typeof node === 'string') return interpolate(node, env) as T;
  if (Array.isArray(node)) return node.map((item) => interpolateAll(item, env)) as T;
  if (node && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, interpolateAll(v, env)])) as T;
  }
  return node;
}

/** The services `docker compose up <name>` starts: the name and everything it depends on. */
export function dependencyClosure(compose: ComposeFile, name: string): Set<string> {
  const seen = new Set<string>();
  const visit = (service: string, path: string[]) => {
    if (path.includes(service)) throw new Error(`dependency cycle: ${[...path, service].join(' -> ')}`);
    if (seen.has(service)) return;
    const definition = compose.services[service];
    if (!definition) throw new Error(`${path.at(-1) ?? 'compose'} depends on unknown service ${service}`);
    seen.add(service);
    for (const dep of Object.keys(definition.depends_on ?? {})) visit(dep, [...path, service]);
  };
  visit(name, []);
  return seen;
}
