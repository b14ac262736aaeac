import { runMigrations } from '@platform/runtime';
import { llmService } from './index';

runMigrations(llmService);
