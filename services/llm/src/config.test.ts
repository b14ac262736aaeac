import { ConfigError } from '@platform/tenancy';
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
});
