import { runStandalone } from '@platform/runtime';
import { mailerService } from './index';

runStandalone(mailerService);
