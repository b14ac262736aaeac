import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import type { Listening } from './listen';

/** A free loopback port (taken and given back at once). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Portkey's open-source gateway (`@portkey-ai/gateway`, Node and Hono), as its README starts it,
 * in a child process. Requests name the vendor and its address in headers:
 * `x-portkey-provider: openai`, `x-portkey-custom-host: <stand-in>/v1` (see `portkeyHeaders`).
 */
export async function startPortkey(): Promise<Listening> {
  const port = await freePort();
  const script = path.join(path.dirname(require.resolve('@portkey-ai/gateway/package.json')), 'build/start-server.js');
  // Its error log (a stack per failed request) stays out of the bench's output: the row counts the errors.
  const child = spawn(process.execPath, [script, `--port=${port}`, '--headless'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  process.once('exit', () => child.kill());
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (data: Buffer) => {
      seen += data.toString();
      if (seen.includes('Ready for connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`Portkey's gateway exited with ${code}`)));
  });
  child.stdout!.resume();
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      child.kill();
    },
  };
}

/** The headers that route a request through Portkey's gateway to an OpenAI-compatible address. */
export const portkeyHeaders = (openAiBaseUrl: string, apiKey: string): Record<string, string> => ({
  'x-portkey-provider': 'openai',
  'x-portkey-custom-host': openAiBaseUrl,
  authorization: `Bearer ${apiKey}`,
});
