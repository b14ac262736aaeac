import { runMigrations } from '@platform/runtime';
import { cmsService } from './index';

runMigrations(cmsService);
