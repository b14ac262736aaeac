import { runStandalone } from '@platform/runtime';
import { llmService } from './index';

runStandalone(llmService);
