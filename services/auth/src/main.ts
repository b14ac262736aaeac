import { runStandalone } from '@platform/runtime';
import { authService } from './index';

runStandalone(authService);
