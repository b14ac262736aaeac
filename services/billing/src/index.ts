import type { ServiceDefinition } from '@platform/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';

export const billingService: ServiceDefinition = {
  name: 'billing',
  defaultPort: 4002,
  migrations,
  createApp,
};
