import { runMigrations } from '@platform/runtime';
import { templateService } from './index';

runMigrations(templateService);
