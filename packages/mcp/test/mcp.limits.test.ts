import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { builderProject, type BuilderProject } from './support/builder';
import { callTool, connectHttp } from './support/mcp-client';
import { startPlatform, type RunningPlatform } from './support/platform';

jest.setTimeout(60_000);

const LIMIT = 5;
let platform: RunningPlatform;
let acme: BuilderProject;
let other: BuilderProject;
const clients: Client[] = [];

beforeAll(async () => {
  platform = await startPlatform({ PROJECT_RATE_LIMIT: String(LIMIT), PROJECT_RATE_LIMIT_WINDOW_MS: '600000' });
  acme = await builderProject(platform, 'Limited');
  other = await builderProject(platform, 'Neighbour');
}, 180_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await platform?.stop();
});

it("when an agent calls past the project's rate limit, then the service refuses with 429, for that project only", async () => {
  const client = await connectHttp(platform.mcpUrl, { authorization: `Bearer ${acme.credential}` });
  clients.push(client);
  const statuses: number[] = [];
  for (let i = 0; i < LIMIT + 2; i++) statuses.push((await callTool(client, 'cms_getContent')).json.status);
  expect(statuses.slice(0, LIMIT).every((s) => s === 200)).toBe(true);
  expect(statuses.slice(LIMIT)).toEqual([429, 429]);
  const refused = await callTool(client, 'cms_getContent');
  expect(refused.isError).toBe(true);

  const neighbour = await connectHttp(platform.mcpUrl, { authorization: `Bearer ${other.credential}` });
  clients.push(neighbour);
  expect((await callTool(neighbour, 'cms_getContent')).json.status).toBe(200);
});
