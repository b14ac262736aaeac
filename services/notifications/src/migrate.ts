import { runMigrations } from '@platform/runtime';
import { notificationsService } from './index';

runMigrations(notificationsService);
