import type { Migration } from '@platform/db';
import { llmTables } from './0001-llm-tables';

/** The LLM service's schema changes, oldest first. */
export const migrations: Migration[] = [llmTables];
