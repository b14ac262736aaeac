import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(__dirname, '../../..');

/** Starts telemetry in a fresh process with `env` and says how many SDK modules it loaded. */
async function sdkModulesLoaded(env: Record<string, string>): Promise<number> {
  const script = `
    const { startTelemetry, stopTelemetry } = require('./packages/telemetry/src/start');
    startTelemetry({ service: 'probe' }, ${JSON.stringify(env)});
    process.stdout.write(String(Object.keys(require.cache).filter((file) => file.includes('@opentelemetry/sdk-')).length));
    stopTelemetry();
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT });
  return Number(stdout);
}

describe('tracing off', () => {
  it('when no OTLP endpoint is set, then the SDK is never loaded', async () => {
    expect(await sdkModulesLoaded({})).toBe(0);
  });

  it('when the SDK is disabled, then it is never loaded, endpoint or not', async () => {
    expect(
      await sdkModulesLoaded({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_SDK_DISABLED: 'true' }),
    ).toBe(0);
  });

  it('when an endpoint is set, then the SDK is loaded', async () => {
    expect(await sdkModulesLoaded({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' })).toBeGreaterThan(0);
  });
});
