import { runMigrations } from '@platform/runtime';
import { authService } from './index';

runMigrations(authService);
