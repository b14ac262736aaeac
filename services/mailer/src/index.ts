import type { ServiceDefinition } from '@platform/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';

export const mailerService: ServiceDefinition = {
  name: 'mailer',
  defaultPort: 4005,
  migrations,
  createApp,
};
