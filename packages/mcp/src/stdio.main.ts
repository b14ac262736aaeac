/**
 * `pnpm mcp --project <id> [--organisation <id>] [--url <endpoint>] [--readonly]`: the platform's
 * MCP server over stdio, for desktop clients. The credential comes from the environment:
 * PLATFORM_CREDENTIAL (`<public key>.<secret key>`, or a console member's token).
 */
import { parseArgs } from 'node:util';
import { runStdioBridge } from './stdio';

const { values } = parseArgs({
  options: {
    project: { type: 'string' },
    organisation: { type: 'string' },
    url: { type: 'string' },
    readonly: { type: 'boolean' },
  },
});
const credential = process.env.PLATFORM_CREDENTIAL;
if (!credential) {
  process.stderr.write(
    'Set PLATFORM_CREDENTIAL to the project key pair `<public key>.<secret key>` or a console token\n',
  );
  process.exit(2);
}
runStdioBridge({
  url: values.url ?? process.env.PLATFORM_MCP_URL ?? 'http://localhost:4000/v1/mcp',
  credential,
  projectId: values.project ?? process.env.PLATFORM_PROJECT_ID,
  organisationId: values.organisation ?? process.env.PLATFORM_ORGANISATION_ID,
  readOnly: values.readonly ?? process.env.PLATFORM_MCP_READONLY === '1',
}).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
