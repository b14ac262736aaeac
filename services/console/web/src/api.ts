/** The page's only way to the platform: the generated client, pointed at the console's same-origin pass-through. */
import { createClient, type ApiError, type consoleApi, type PlatformClient } from '@platform/client';

/** Sent on every call: the pass-through refuses a write without it (CSRF). */
const CSRF_HEADERS = { 'x-console-request': '1' };

export const controlPlane = createClient({ urls: { console: '/api/console/v1' }, headers: CSRF_HEADERS }).console;

export type Schemas = consoleApi.components['schemas'];
export type Role = Schemas['Member']['role'];

const PROJECT_SERVICES = ['auth', 'billing', 'cms', 'llm', 'mailer', 'notifications'] as const;

/** The six services of one project, called with the signed-in member's token (added by the console server). */
export function projectClient(orgId: string, projectId: string): PlatformClient {
  const base = `/api/projects/${encodeURIComponent(orgId)}/${encodeURIComponent(projectId)}`;
  return createClient({
    urls: Object.fromEntries(PROJECT_SERVICES.map((name) => [name, `${base}/${name}/v1`])),
    headers: CSRF_HEADERS,
  });
}

/** A refused call: its status and the platform's error envelope, when there is one. */
export class CallFailed extends Error {
  constructor(
    readonly status: number,
    readonly envelope?: ApiError,
  ) {
    super(envelope?.error.message ?? `The request failed (HTTP ${status})`);
  }

  /** The messages about single fields (`details[].path`), by field name. */
  get fieldMessages(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const detail of this.envelope?.error.details ?? []) out[detail.path.split('.').pop() ?? ''] ??= detail.message;
    return out;
  }
}

/** The data of a call, or a thrown CallFailed. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const result = await call;
  if (result.error !== undefined || !result.response.ok) {
    const envelope = result.error as ApiError | undefined;
    throw new CallFailed(result.response.status, envelope && typeof envelope === 'object' ? envelope : undefined);
  }
  return result.data as T;
}

/** A plain POST to the console server itself (sign-out, the dev inbox are not part of the public API). */
export async function consoleServer(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(path, { ...init, headers: { ...CSRF_HEADERS, ...(init.headers ?? {}) } });
}
