import { runStandalone } from '@platform/runtime';
import { templateService } from './index';

runStandalone(templateService);
