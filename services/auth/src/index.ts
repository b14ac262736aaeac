import type { ServiceDefinition } from '@platform/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';

export const authService: ServiceDefinition = {
  name: 'auth',
  defaultPort: 4001,
  migrations,
  createApp,
};
