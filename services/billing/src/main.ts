import { runStandalone } from '@platform/runtime';
import { billingService } from './index';

runStandalone(billingService);
