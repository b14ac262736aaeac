import type { ServiceDefinition } from '@platform/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';

export const notificationsService: ServiceDefinition = {
  name: 'notifications',
  defaultPort: 4006,
  migrations,
  createApp,
};
