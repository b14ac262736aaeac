import { toBatchFinishedData, toBatchResults, toBatchSummary } from './batches.mapper';
import type { BatchRow } from './batches.model';
import type { BatchResultRow } from './batches.repository';

const batch: BatchRow = {
  id: '5f0c7a52-1d0e-4b8a-9f3e-2b1c0d9e8f7a',
  tenant_id: '0b6c2f9e-6a43-4d5e-9d3b-0f1e2d3c4b5a',
  project_id: '7d1e2f3a-4b5c-4d6e-8f90-a1b2c3d4e5f6',
  status: 'completed',
  request_count: 3,
  completed_count: 2,
  failed_count: 1,
  webhook_url: 'https://hooks.example.com/batch',
  created_at: new Date('2026-11-22T10:00:00Z'),
  completed_at: new Date('2026-11-22T10:05:00.250Z'),
};

const succeeded: BatchResultRow = {
  custom_id: 'a',
  status: 'succeeded',
  completion: 'Hello',
  model: 'gpt-4o',
  result_model: 'gpt-4o-2024-08-06',
  prompt_tokens: 5,
  completion_tokens: 1,
  total_tokens: 6,
  error: null,
};

describe('toBatchSummary', () => {
  it('when a batch row is mapped, then the API fields are camelCase with ISO timestamps and the owner stays out', () => {
    expect(toBatchSummary(batch)).toEqual({
      batchId: batch.id,
      status: 'completed',
      requestCount: 3,
      completedCount: 2,
      failedCount: 1,
      createdAt: '2026-11-22T10:00:00.000Z',
      completedAt: '2026-11-22T10:05:00.250Z',
    });
  });

  it('when the batch has not finished, then completedAt is null', () => {
    expect(toBatchSummary({ ...batch, status: 'processing', completed_at: null }).completedAt).toBeNull();
  });
});

describe('toBatchResults', () => {
  it('when an item succeeded, then it shows the model the vendor reported, its usage, and no error key', () => {
    const [result] = toBatchResults(batch, [succeeded]).results;
    expect(result).toEqual({
      custom_id: 'a',
      status: 'succeeded',
      completion: 'Hello',
      model: 'gpt-4o-2024-08-06',
      usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
    });
  });

  it('when an item has no stored result model or token counts, then the requested model and zero usage are shown, with its error', () => {
    const failed: BatchResultRow = {
      ...succeeded,
      status: 'failed',
      completion: null,
      result_model: null,
      prompt_tokens: null,
      completion_tokens: null,
      total_tokens: null,
      error: 'rate limited',
    };
    expect(toBatchResults(batch, [failed]).results[0]).toEqual({
      custom_id: 'a',
      status: 'failed',
      completion: null,
      model: 'gpt-4o',
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      error: 'rate limited',
    });
  });
});

describe('toBatchFinishedData', () => {
  it('when a batch finished, then the event carries its counts, completion time and webhook', () => {
    expect(toBatchFinishedData(batch)).toEqual({
      batchId: batch.id,
      status: 'completed',
      requestCount: 3,
      completedCount: 2,
      failedCount: 1,
      completedAt: '2026-11-22T10:05:00.250Z',
      webhookUrl: 'https://hooks.example.com/batch',
    });
    expect(toBatchFinishedData({ ...batch, status: 'failed' }).status).toBe('failed');
  });
});
