import type { Migration } from '@platform/db';
import { llmTables } from './0001-llm-tables';
import { batchConcurrencySlots } from './0002-batch-concurrency-slots';
import { gateway } from './0003-gateway';

/** The LLM service's schema changes, oldest first. */
export const migrations: Migration[] = [llmTables, batchConcurrencySlots, gateway];
