import { runStandalone } from '@platform/runtime';
import { consoleService } from './index';

runStandalone(consoleService);
