import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { SERVICE_DOCUMENTS } from './service-documents';
import { buildCatalog, DECISIONS, operationsOf, undecidedOperations } from '../src';

describe('the MCP decision table', () => {
  it('when a service contract has an operation, then the table decides it (exposed, or left out with a reason)', () => {
    // An operation added to a contract without a line in src/decisions.ts fails here: add one line.
    expect(undecidedOperations(SERVICE_DOCUMENTS)).toEqual([]);
  });

  it('when the table names an operation, then the contract still has it (no stale lines)', () => {
    const stale = Object.entries(DECISIONS).flatMap(([service, decisions]) => {
      const ids = new Set(operationsOf(SERVICE_DOCUMENTS[service] ?? {}).map((o) => o.operation.operationId));
      return Object.keys(decisions)
        .filter((id) => !ids.has(id))
        .map((id) => `${service}.${id}`);
    });
    expect(stale).toEqual([]);
  });

  it('when an operation is left out, then the reason is written down', () => {
    for (const decisions of Object.values(DECISIONS))
      for (const decision of Object.values(decisions))
        if (typeof decision === 'object') expect(decision.leftOut.length).toBeGreaterThan(10);
  });
});

describe('the tools generated from the contracts', () => {
  const tools = buildCatalog(SERVICE_DOCUMENTS);

  it('when built, then each tool has a valid name, a description and an input schema a JSON Schema validator compiles', () => {
    const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false, allErrors: true });
    addFormats(ajv);
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(tool.description.length).toBeGreaterThan(10);
      expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
    }
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
  });

  it('when an operation reads, deletes or sends, then its annotations say so', () => {
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('cms_getContent')!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.get('cms_deleteContentByContentId')!.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.get('mailer_postEmailsSend')!.annotations).toMatchObject({
      destructiveHint: true,
      readOnlyHint: false,
    });
    expect(byName.get('console_deleteProject')!.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.get('auth_deleteUser')!.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.get('cms_postContent')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    // A POST that changes nothing is a read.
    expect(byName.get('mailer_postTemplatesByTemplateIdPreview')!.readOnly).toBe(true);
  });

  it('when an operation is a vendor webhook, a stream or an end-user route, then it is no tool', () => {
    const names = new Set(tools.map((t) => t.name));
    for (const name of [
      'billing_receiveStripeWebhook',
      'mailer_postWebhooksByProviderId',
      'notifications_getNotificationsStream',
      'auth_postLogin',
      'mailer_getUnsubscribeByToken',
      'console_createKey',
    ])
      expect(names.has(name)).toBe(false);
  });

  it('when a path names the organisation or project, then the connection fills it and the input does not ask for it', () => {
    const logs = tools.find((t) => t.name === 'llm_getLogsByTenantIdByProjectId')!;
    const properties = Object.keys((logs.inputSchema.properties ?? {}) as object);
    expect(properties).not.toContain('tenant_id');
    expect(properties).not.toContain('project_id');
    const settings = tools.find((t) => t.name === 'console_updateSettings')!;
    expect(Object.keys(settings.inputSchema.properties as object)).toEqual(['body']);
  });
});
