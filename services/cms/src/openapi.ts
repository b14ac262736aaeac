import { buildOpenApiDocument } from '@platform/tenancy';

export const openapi = buildOpenApiDocument({
  title: 'CMS service',
  description: 'Part of the application backend platform. All paths start with /v1.',
  paths: {},
});
