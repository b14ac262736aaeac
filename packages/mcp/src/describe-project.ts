import type { Caller } from './caller';
import type { OperationTool } from './catalog';
import { invoke, type ServiceUrls } from './invoke';

/** The reads that describe a project: what each service holds for it, and its settings. */
const PARTS: Record<string, string[]> = {
  console: ['console_getProject', 'console_getSettings'],
  auth: ['auth_getUsers'],
  billing: ['billing_getStripeConfig', 'billing_listCustomers'],
  cms: ['cms_getContentTypes', 'cms_getContent', 'cms_getWebhooks'],
  llm: ['llm_getProviders', 'llm_getLimits'],
  mailer: ['mailer_getProviders', 'mailer_getTemplates', 'mailer_getStats'],
  notifications: ['notifications_getNotifications'],
};

/** A list answer as its count (and whether there are more pages); anything else as it is. */
function summarise(body: unknown): unknown {
  if (Array.isArray(body)) return { count: body.length };
  if (!body || typeof body !== 'object') return body;
  const record = body as Record<string, unknown>;
  const list = Object.entries(record).find(([, value]) => Array.isArray(value));
  if (!list) return body;
  const more = Object.entries(record).some(
    ([key, value]) => /cursor|next/i.test(key) && value !== null && value !== undefined && value !== false,
  );
  const total = typeof record.total === 'number' ? record.total : undefined;
  return { count: total ?? (list[1] as unknown[]).length, ...(more && total === undefined ? { more: true } : {}) };
}

/**
 * `describe_project`: one step for an agent's first question, "what is this project": its
 * services, settings and counts, each read through the same public API as the tools.
 */
export async function describeProject(
  caller: Caller,
  tools: Map<string, OperationTool>,
  urls: ServiceUrls,
): Promise<Record<string, unknown>> {
  const services: Record<string, unknown> = {};
  await Promise.all(
    Object.entries(PARTS).map(async ([service, names]) => {
      const parts: Record<string, unknown> = {};
      for (const name of names) {
        const tool = tools.get(name);
        if (!tool) continue;
        try {
          const answer = await invoke(tool, {}, caller, urls);
          parts[tool.operationId] =
            answer.status < 300 ? summarise(answer.body) : { status: answer.status, error: answer.body };
        } catch (error) {
          parts[tool.operationId] = { unreachable: error instanceof Error ? error.message : String(error) };
        }
      }
      if (Object.keys(parts).length > 0) services[service] = parts;
    }),
  );
  return {
    organisationId: caller.tenantId,
    projectId: caller.projectId,
    caller: caller.kind === 'member' ? { member: caller.email, role: caller.role } : { projectKey: caller.apiKey },
    services,
  };
}
