import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { builderProject, type BuilderProject } from './support/builder';
import { answered, callTool } from './support/mcp-client';
import { startPlatform, type RunningPlatform } from './support/platform';

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '../../..');
let platform: RunningPlatform;
let acme: BuilderProject;
const clients: Client[] = [];

/** `pnpm mcp ...` started as a desktop client starts it, spoken to with the SDK's stdio client. */
async function connectStdio(args: string[], credential: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: 'pnpm',
    args: ['--silent', 'mcp', '--url', platform.mcpUrl, ...args],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PLATFORM_CREDENTIAL: credential },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'platform-stdio-test', version: '1.0.0' });
  clients.push(client);
  await client.connect(transport);
  return client;
}

beforeAll(async () => {
  platform = await startPlatform();
  acme = await builderProject(platform, 'Stdio');
}, 180_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await platform?.stop();
});

describe('pnpm mcp (stdio)', () => {
  it('when started with the project credential, then it lists valid tools and calls a read and a write tool', async () => {
    const client = await connectStdio(['--project', acme.projectId], acme.credential);
    const { tools } = await client.listTools();
    const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false });
    addFormats(ajv);
    for (const tool of tools) expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
    expect(tools.map((t) => t.name)).toContain('cms_postContent');

    const created = await callTool(client, 'cms_postContent', {
      body: { type: 'page', title: 'Made over stdio', content: 'Hello' },
    });
    expect(created.json.status).toBe(201);
    const listed = await callTool(client, 'cms_getContent');
    expect(listed.text).toContain('Made over stdio');
    expect(answered.join('\n')).not.toContain(acme.secretKey);
  });

  it('when started --readonly, then a write is refused', async () => {
    const client = await connectStdio(['--project', acme.projectId, '--readonly'], acme.credential);
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('cms_postContent');
    const refused = await callTool(client, 'cms_postContent', { body: { type: 'page', title: 'No', content: 'No' } });
    expect(refused.isError).toBe(true);
  });

  it("when started with a viewer's console session, then only reading tools are there", async () => {
    const client = await connectStdio(
      ['--organisation', acme.organisationId, '--project', acme.projectId],
      acme.members.viewer.token,
    );
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('console_getSettings');
    expect(names).not.toContain('mailer_postEmailsSend');
  });

  it('when the credential is wrong, then the client cannot initialise', async () => {
    const wrong = `${acme.credential.split('.')[0]}.sk_wrongwrongwrong`;
    await expect(connectStdio(['--project', acme.projectId], wrong)).rejects.toThrow(/credential|401|UNAUTHORIZED/i);
  });
});
