import type { ServiceDefinition } from '@platform/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';

export const cmsService: ServiceDefinition = {
  name: 'cms',
  defaultPort: 4003,
  migrations,
  createApp,
};
