import { scrapedMetric } from '@platform/http';
import type { CompletionLogWriter } from './completion-log-writer';

/**
 * What an operator watches of the completion-log writer: rows waiting for the database (grows
 * during an outage) and rows lost for good (a full buffer, a row Postgres refused, a stop
 * that could not wait), which should stay at zero.
 */
export function completionLogMetrics(writer: CompletionLogWriter) {
  return [
    scrapedMetric('llm_completion_logs_pending', 'Completion logs not written to the database yet', 'gauge', () => [
      { labels: {}, value: writer.pending },
    ]),
    scrapedMetric(
      'llm_completion_logs_dropped_total',
      'Completion logs lost since the process started',
      'counter',
      () => [{ labels: {}, value: writer.droppedTotal }],
    ),
  ];
}
