import { runMigrations } from '@platform/runtime';
import { consoleService } from './index';

runMigrations(consoleService);
