import type { LegacyServiceDefinition } from '@platform/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';

export const billingService: LegacyServiceDefinition = {
  name: 'billing',
  defaultPort: 4002,
  migrations,
  createApp: (deps) => createApp(deps),
};

export { createApp } from './app';
export { loadBillingConfig, type BillingConfig } from './config';
