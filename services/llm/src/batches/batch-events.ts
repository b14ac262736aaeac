/** Events of the LLM service (its own queues consume them; routing keys under `llm.`). */
export const BATCH_EVENTS = {
  /** A batch was stored and waits for a worker. */
  submitted: 'llm.batch.submitted',
  /** An unfinished batch is handed to the next worker (end of a slice, a stopping worker, the sweeper). */
  resume: 'llm.batch.resume',
  /** A batch reached completed or failed; drives the webhook. */
  finished: 'llm.batch.finished',
  /** The next attempt of a webhook, held in the outbox until it is due. */
  webhookRetry: 'llm.batch.webhook-retry',
} as const;

export interface BatchWorkData {
  batchId: string;
}

export interface BatchFinishedData {
  batchId: string;
  status: 'completed' | 'failed';
  requestCount: number;
  completedCount: number;
  failedCount: number;
  completedAt: string;
  webhookUrl: string | null;
}

/** A later attempt of the same webhook: same id, same body. */
export interface WebhookRetryData extends BatchFinishedData {
  webhookId: string;
  attempt: number;
}
