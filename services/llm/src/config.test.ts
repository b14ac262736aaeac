import { ConfigError } from '@platform/runtime';
import { loadLlmConfig } from './config';

describe('LLM configuration', () => {
  it('when LLM_ROLE is unset, then one process runs the API, the batch worker and the webhook deliverer', () => {
    expect(loadLlmConfig({}).role).toBe('all');
  });

  it.each(['api', 'worker'] as const)('when LLM_ROLE is %s, then that role is taken', (role) => {
    expect(loadLlmConfig({ LLM_ROLE: role }).role).toBe(role);
  });

  it('when LLM_ROLE is unknown, then start-up is refused', () => {
    expect(() => loadLlmConfig({ LLM_ROLE: 'both' })).toThrow(ConfigError);
  });

  it('when webhook retries are not configured, then at least 5 attempts spread over an hour, each wait longer than the last (RESOLUTIONS 6)', () => {
    const delays = loadLlmConfig({}).webhookRetryDelaysMs;
    // The first attempt plus one per delay.
    expect(delays.length + 1).toBeGreaterThanOrEqual(5);
    expect(delays.reduce((sum, ms) => sum + ms, 0)).toBeGreaterThanOrEqual(3_600_000);
    delays.slice(1).forEach((ms, i) => expect(ms).toBeGreaterThan(delays[i]));
  });

  it('when the stream caps are not configured, then a project may hold a quarter of the process’s streams', () => {
    const config = loadLlmConfig({});
    expect(config.gatewayMaxStreams).toBe(500);
    expect(config.gatewayMaxStreamsPerProject).toBe(125);
    expect(loadLlmConfig({ LLM_GATEWAY_MAX_STREAMS: '2000' }).gatewayMaxStreamsPerProject).toBe(500);
  });

  it('when a project’s stream cap exceeds the process’s, then start-up is refused', () => {
    expect(() => loadLlmConfig({ LLM_GATEWAY_MAX_STREAMS: '100', LLM_GATEWAY_MAX_STREAMS_PER_PROJECT: '101' })).toThrow(
      ConfigError,
    );
  });
});
