import { toLog, toStats } from './usage.mapper';
import type { LogRow } from './usage.repository';

const row: LogRow = {
  id: '5f0c7a52-1d0e-4b8a-9f3e-2b1c0d9e8f7a',
  model: 'gpt-4o',
  provider: 'openai',
  status: 'success',
  prompt_tokens: 12,
  completion_tokens: 3,
  total_tokens: 15,
  latency_ms: 42,
  error: null,
  batch_id: null,
  created_at: new Date('2026-11-22T10:00:00Z'),
  cost_usd: '0.0000600000',
  cached_tokens: 4,
  cache_write_tokens: 0,
  request_id: '7d1e2f3a-4b5c-4d6e-8f90-a1b2c3d4e5f6',
  attempt: 2,
  stream: true,
};

describe('toLog', () => {
  it('when a log row is mapped, then the API fields are camelCase, the numeric cost a number and the time ISO', () => {
    expect(toLog(row)).toEqual({
      id: row.id,
      model: 'gpt-4o',
      provider: 'openai',
      status: 'success',
      promptTokens: 12,
      completionTokens: 3,
      totalTokens: 15,
      latencyMs: 42,
      error: null,
      batchId: null,
      createdAt: '2026-11-22T10:00:00.000Z',
      costUsd: 0.00006,
      cachedTokens: 4,
      cacheWriteTokens: 0,
      requestId: row.request_id,
      attempt: 2,
      stream: true,
    });
  });

  it('when the model has no price, then costUsd stays null (never 0)', () => {
    expect(toLog({ ...row, cost_usd: null }).costUsd).toBeNull();
  });

  it('when a row carries columns beyond the log (such as a page total), then they are not exposed', () => {
    expect(Object.keys(toLog({ ...row, full_count: '7' } as LogRow))).not.toContain('full_count');
  });
});

describe('toStats', () => {
  it('when a range has no logs, then every count is 0 and the groups are empty', () => {
    expect(toStats({ totals: undefined, byModel: [], byProvider: [] }, {})).toEqual({
      totalRequests: 0,
      successfulRequests: 0,
      failedRequests: 0,
      promptTokens: 0,
      completionTokens: 0,
      totalTokens: 0,
      averageLatencyMs: 0,
      costUsd: 0,
      unpricedRequests: 0,
      byModel: [],
      byProvider: [],
    });
  });

  it('when groups are read, then their key is named for the grouping and the bigint strings become numbers', () => {
    const group = { key: 'gpt-4o', requests: '2', total_tokens: '30', cost_usd: null };
    const stats = toStats({ totals: undefined, byModel: [group], byProvider: [{ ...group, key: 'openai' }] }, {});
    expect(stats.byModel).toEqual([{ model: 'gpt-4o', requests: 2, totalTokens: 30, costUsd: null }]);
    expect(stats.byProvider).toEqual([{ provider: 'openai', requests: 2, totalTokens: 30, costUsd: null }]);
  });
});
