import type { ServiceDefinition } from '@platform/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';

export const llmService: ServiceDefinition = {
  name: 'llm',
  defaultPort: 4004,
  migrations,
  createApp,
};
