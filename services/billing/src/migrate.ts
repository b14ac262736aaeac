import { runMigrations } from '@platform/runtime';
import { billingService } from './index';

runMigrations(billingService);
