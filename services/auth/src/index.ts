import type { LegacyServiceDefinition } from '@platform/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';
import { startLoginFailurePrune } from './lockout/login-failures.prune';

export const authService: LegacyServiceDefinition = {
  name: 'auth',
  defaultPort: 4001,
  migrations,
  createApp,
  async startBackground(deps) {
    return startLoginFailurePrune(deps.db, deps.logger);
  },
};
