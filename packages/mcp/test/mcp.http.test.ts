import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { api, builderProject, type BuilderProject } from './support/builder';
import { answered, callTool, connectHttp } from './support/mcp-client';
import { startPlatform, type RunningPlatform } from './support/platform';

jest.setTimeout(60_000);

let platform: RunningPlatform;
let acme: BuilderProject;
let other: BuilderProject;
const clients: Client[] = [];

const asProject = (project: BuilderProject, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${project.credential}`,
  ...extra,
});
const asMember = (project: BuilderProject, role: keyof BuilderProject['members']) => ({
  authorization: `Bearer ${project.members[role].token}`,
  'x-organisation-id': project.organisationId,
  'x-project-id': project.projectId,
});
async function connect(headers: Record<string, string>, query = ''): Promise<Client> {
  const client = await connectHttp(`${platform.mcpUrl}${query}`, headers);
  clients.push(client);
  return client;
}
const toolNames = async (client: Client) => (await client.listTools()).tools.map((t) => t.name);

// Secrets the tools were handed or the project holds: none may come back in a result.
const VENDOR_SECRETS = {
  stripe: 'sk_test_mcpStripeSecret123',
  stripeWebhook: 'whsec_mcpWebhookSecret123',
  llm: 'sk-mcp-llm-vendor-key-123',
  mailer: 'key-mcp-mailgun-secret-123',
};
const PASSWORD = 'correct horse battery staple mcp';

beforeAll(async () => {
  platform = await startPlatform();
  acme = await builderProject(platform, 'Acme');
  other = await builderProject(platform, 'Other');
}, 180_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await platform?.stop();
});

describe('tools over Streamable HTTP with the project credential', () => {
  it('when an agent lists the tools, then each has a description and an input schema that a JSON Schema validator compiles', async () => {
    const client = await connect(asProject(acme));
    const { tools } = await client.listTools();
    const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false });
    addFormats(ajv);
    expect(tools.length).toBeGreaterThan(60);
    for (const tool of tools) {
      expect(tool.description).toBeTruthy();
      expect(tool.inputSchema.type).toBe('object');
      expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
      expect(tool.annotations).toBeDefined();
    }
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['describe_project', 'cms_postContent', 'mailer_postEmailsSend']));
    // The console's operations need a console member: the project credential does not see them.
    expect(names.filter((n) => n.startsWith('console_'))).toEqual([]);
  });

  it('when a read and a write tool of each service are called, then they act on the project through its public API', async () => {
    const client = await connect(asProject(acme));

    // Authentication: a user of the app, disabled and read back.
    const registered = await api(`${platform.urls.auth}/register`, {
      method: 'POST',
      headers: acme.keyHeaders,
      body: { email: 'ada@example.com', password: PASSWORD },
    });
    expect(registered.status).toBe(201);
    const users = await callTool(client, 'auth_getUsers', { limit: 10 });
    expect(users.isError).toBe(false);
    const user = users.json.body.users.find((u: { email: string }) => u.email === 'ada@example.com');
    expect(user).toBeDefined();
    const disabled = await callTool(client, 'auth_postUserDisable', { user_id: user.id });
    expect(disabled.json.status).toBeLessThan(300);

    // Billing: the Stripe keys are stored; reading the configuration never shows them.
    const stored = await callTool(client, 'billing_putStripeConfig', {
      body: { secretKey: VENDOR_SECRETS.stripe, webhookSecret: VENDOR_SECRETS.stripeWebhook },
    });
    expect(stored.json.status).toBeLessThan(300);
    const config = await callTool(client, 'billing_getStripeConfig');
    expect(config.json.status).toBe(200);

    // CMS: a content item created, then listed.
    const created = await callTool(client, 'cms_postContent', {
      body: { type: 'blog', title: 'Hello from an agent', content: 'First post' },
    });
    expect(created.json.status).toBe(201);
    const listed = await callTool(client, 'cms_getContent');
    expect(listed.text).toContain('Hello from an agent');

    // LLM: limits set and read back; a vendor key stored and never shown.
    const limits = await callTool(client, 'llm_putLimits', { body: { monthlyBudgetUsd: 25, requestsPerMinute: 60 } });
    expect(limits.json.status).toBe(200);
    expect((await callTool(client, 'llm_getLimits')).json.body).toMatchObject({ monthlyBudgetUsd: 25 });
    const provider = await callTool(client, 'llm_postProviders', {
      body: { providerType: 'openai', apiKey: VENDOR_SECRETS.llm },
    });
    expect(provider.json.status).toBeLessThan(300);
    expect((await callTool(client, 'llm_getProviders')).json.status).toBe(200);

    // Mailer: a template created and listed; a provider's key stored and never shown.
    const template = await callTool(client, 'mailer_postTemplates', {
      body: { name: 'Welcome', subject: 'Welcome {{name}}', html: '<p>Hi {{name}}</p>' },
    });
    expect(template.json.status).toBe(201);
    expect((await callTool(client, 'mailer_getTemplates')).text).toContain('Welcome');
    const mailProvider = await callTool(client, 'mailer_postProviders', {
      body: { name: 'main', type: 'mailgun', config: { apiKey: VENDOR_SECRETS.mailer, domain: 'mg.example.com' } },
    });
    expect(mailProvider.json.status).toBe(201);
    expect((await callTool(client, 'mailer_getProviders')).json.status).toBe(200);

    // Notifications: a broadcast sent and listed.
    const sent = await callTool(client, 'notifications_postNotifications', {
      body: { title: 'Maintenance', message: 'Tonight at ten' },
    });
    expect(sent.json.status).toBe(201);
    expect((await callTool(client, 'notifications_getNotifications')).text).toContain('Maintenance');
  });

  it('when the input does not fit the tool, then the tool answers an error naming the problem and calls nothing', async () => {
    const client = await connect(asProject(acme));
    const wrong = await callTool(client, 'cms_postContent', { body: { title: 'no type' } });
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toMatch(/Invalid input.*type/);
  });

  it('when describe_project is called, then it gives the project and what each service holds for it', async () => {
    const client = await connect(asProject(acme));
    const described = await callTool(client, 'describe_project');
    expect(described.json).toMatchObject({ organisationId: acme.organisationId, projectId: acme.projectId });
    expect(Object.keys(described.json.services)).toEqual(
      expect.arrayContaining(['auth', 'billing', 'cms', 'llm', 'mailer', 'notifications']),
    );
    expect(described.json.services.cms.getContent).toMatchObject({ count: 1 });
  });

  it('when resources and prompts are asked for, then the OpenAPI documents, README sections and job prompts are there', async () => {
    const client = await connect(asProject(acme));
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining(['openapi://cms', 'openapi://mailer', 'openapi://console']));
    expect(uris.some((u) => u.startsWith('readme://auth/'))).toBe(true);
    const cms = await client.readResource({ uri: 'openapi://cms' });
    expect(JSON.parse((cms.contents[0] as { text: string }).text).openapi).toBe('3.1.0');
    const prompt = await client.getPrompt({ name: 'add_email_verification', arguments: {} });
    expect(JSON.stringify(prompt.messages)).toContain('verify-email');
  });
});

describe('safe by default', () => {
  it('when a connection asks for read-only mode, then only reading tools are listed and a write is refused and audited', async () => {
    const client = await connect(asProject(acme), '?readonly=1');
    const { tools } = await client.listTools();
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    expect(tools.map((t) => t.name)).toContain('cms_getContent');
    const refused = await callTool(client, 'cms_postContent', {
      body: { type: 'blog', title: 'Should not exist', content: 'x' },
    });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/Refused/);
    const list = await api(`${platform.urls.cms}/content`, { headers: acme.keyHeaders });
    expect(JSON.stringify(list.body)).not.toContain('Should not exist');

    const header = await connect(asProject(acme, { 'x-mcp-readonly': '1' }));
    expect(await toolNames(header)).not.toContain('mailer_postEmailsSend');
  });

  it('when the credential is wrong, then the connection is refused', async () => {
    const wrongSecret = `${acme.credential.split('.')[0]}.sk_wrongwrongwrong`;
    await expect(connectHttp(platform.mcpUrl, { authorization: `Bearer ${wrongSecret}` })).rejects.toMatchObject({
      code: 401,
    });
    await expect(connectHttp(platform.mcpUrl, {})).rejects.toMatchObject({ code: 401 });
    const bare = await fetch(platform.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toMatch(/^Bearer/);
    await expect(connectHttp(platform.mcpUrl, { authorization: 'Bearer not-a-token' })).rejects.toMatchObject({
      code: 401,
    });
    // A token the console does not know, for a project chosen by header.
    const forged = `${'e30'}.${Buffer.from('{"sub":"x"}').toString('base64url')}.c2ln`;
    await expect(
      connectHttp(platform.mcpUrl, { ...asMember(acme, 'owner'), authorization: `Bearer ${forged}` }),
    ).rejects.toMatchObject({ code: 401 });
  });

  it("when another project's credential names this project, then it is refused; with its own project it sees only its own data", async () => {
    await expect(
      connectHttp(platform.mcpUrl, asProject(other, { 'x-project-id': acme.projectId })),
    ).rejects.toMatchObject({ code: 403 });
    const client = await connect(asProject(other));
    const listed = await callTool(client, 'cms_getContent');
    expect(listed.text).not.toContain('Hello from an agent');
    const described = await callTool(client, 'describe_project');
    expect(described.json.projectId).toBe(other.projectId);
    // A console session of another organisation's member cannot choose this project.
    await expect(
      connectHttp(platform.mcpUrl, {
        ...asMember(acme, 'developer'),
        authorization: `Bearer ${other.members.owner.token}`,
      }),
    ).rejects.toMatchObject({ code: 403 });
  });
});

describe('console members', () => {
  it("when a member connects, then the member's role limits the tools: a viewer reads, a developer also writes", async () => {
    const viewer = await connect(asMember(acme, 'viewer'));
    const viewerTools = await toolNames(viewer);
    expect(viewerTools).toEqual(expect.arrayContaining(['cms_getContent', 'console_getSettings']));
    expect(viewerTools).not.toContain('cms_postContent');
    expect(viewerTools).not.toContain('console_updateSettings');
    // The console's role table: keys are for developers and up, the audit log for admins.
    expect(viewerTools).not.toContain('console_listKeys');
    const refused = await callTool(viewer, 'notifications_postNotifications', { body: { title: 'x', message: 'y' } });
    expect(refused.isError).toBe(true);

    const developer = await connect(asMember(acme, 'developer'));
    const developerTools = await toolNames(developer);
    expect(developerTools).toEqual(
      expect.arrayContaining(['cms_postContent', 'console_getSettings', 'console_updateSettings', 'console_listKeys']),
    );
    expect(developerTools).not.toContain('console_listAuditEntries');
    expect(developerTools).not.toContain('console_deleteProject');
    const admin = await connect(asMember(acme, 'admin'));
    expect(await toolNames(admin)).toEqual(
      expect.arrayContaining(['console_listAuditEntries', 'console_deleteProject']),
    );
    const sent = await callTool(developer, 'notifications_postNotifications', {
      body: { title: 'From a developer', message: 'Sent through MCP' },
    });
    expect(sent.json.status).toBe(201);
    expect((await callTool(developer, 'notifications_getNotifications')).text).toContain('From a developer');
  });

  it("when a member brings a member token, then it acts in the token's project with its role, without the console's tools", async () => {
    const issued = await api(
      `${platform.urls.console}/organisations/${acme.organisationId}/projects/${acme.projectId}/member-token`,
      { method: 'POST', headers: { authorization: `Bearer ${acme.members.viewer.token}` } },
    );
    expect(issued.status).toBe(201);
    const client = await connect({ authorization: `Bearer ${issued.body.token}` });
    const names = await toolNames(client);
    expect(names).toContain('mailer_getLogs');
    expect(names.filter((n) => n.startsWith('console_') || n === 'cms_postContent')).toEqual([]);
    expect((await callTool(client, 'describe_project')).json.projectId).toBe(acme.projectId);
    // Naming another project with it is refused.
    await expect(
      connectHttp(platform.mcpUrl, { authorization: `Bearer ${issued.body.token}`, 'x-project-id': other.projectId }),
    ).rejects.toMatchObject({ code: 403 });
  });

  it('when a member calls the console tools, then the settings are read and written through the console API with their role', async () => {
    const admin = await connect(asMember(acme, 'admin'));
    const updated = await callTool(admin, 'console_updateSettings', { body: { requireEmailVerification: true } });
    expect(updated.json.status).toBe(200);
    const settings = await callTool(admin, 'console_getSettings');
    expect(settings.json.body.settings).toMatchObject({ requireEmailVerification: true });
    const keys = await callTool(admin, 'console_listKeys');
    expect(keys.json.status).toBe(200);
  });

  it('when calls are made through MCP, then the audit log has each of them "via MCP", the refused one as denied', async () => {
    const audit = await api(
      `${platform.urls.console}/organisations/${acme.organisationId}/audit?action=mcp.tool-call&limit=100`,
      { headers: { authorization: `Bearer ${acme.members.owner.token}` } },
    );
    expect(audit.status).toBe(200);
    const entries = audit.body.entries as {
      action: string;
      target: string;
      outcome: string;
      source: string;
      actor: { id: string | null; email: string | null };
      details: Record<string, unknown>;
    }[];
    const of = (tool: string) => entries.filter((e) => e.target === tool);
    for (const tool of [
      'auth_postUserDisable',
      'billing_putStripeConfig',
      'cms_postContent',
      'llm_putLimits',
      'mailer_postTemplates',
      'notifications_postNotifications',
      'console_updateSettings',
    ]) {
      expect(of(tool).length).toBeGreaterThan(0);
      expect(of(tool)[0]).toMatchObject({ source: 'mcp', details: expect.objectContaining({ via: 'MCP' }) });
    }
    expect(
      of('notifications_postNotifications').find((e) => e.actor.email === acme.members.developer.email),
    ).toMatchObject({ outcome: 'success', details: expect.objectContaining({ role: 'developer', status: 201 }) });
    expect(of('cms_postContent').some((e) => e.outcome === 'denied')).toBe(true);
    expect(of('notifications_postNotifications').some((e) => e.outcome === 'denied')).toBe(true);
  });
});

describe('secrets', () => {
  it('when every result of this file is scanned, then no secret key, vendor credential, password or hash is in any', async () => {
    const everything = answered.join('\n');
    expect(answered.length).toBeGreaterThan(20);
    for (const secret of [acme.secretKey, other.secretKey, PASSWORD, ...Object.values(VENDOR_SECRETS)])
      expect(everything).not.toContain(secret);
    expect(everything).not.toMatch(/\$2[aby]\$\d\d\$/); // bcrypt hashes
    expect(everything).not.toMatch(/sk_[A-Za-z0-9]{16,}/); // platform secret keys
    expect(everything).not.toMatch(/BEGIN [A-Z ]*PRIVATE KEY/);
    expect(everything).not.toMatch(/"password(_?hash)?"\s*:\s*"[^[]/i);
  });
});
