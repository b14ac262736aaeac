import { runStandalone } from '@platform/runtime';
import { notificationsService } from './index';

runStandalone(notificationsService);
