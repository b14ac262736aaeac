import { runMigrations } from '@platform/runtime';
import { mailerService } from './index';

runMigrations(mailerService);
