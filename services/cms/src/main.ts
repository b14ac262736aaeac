import { runStandalone } from '@platform/runtime';
import { cmsService } from './index';

runStandalone(cmsService);
