/**
 * The services' own configuration loaders, so that the deployment tests read compose's and the
 * manifests' settings the way the services do at start-up (an invalid value fails here, not in
 * a crash-looping pod).
 */
import { loadPlatformConfig, type PlatformConfig } from '@platform/runtime';
import { loadAuthConfig } from '../../../services/auth/src/config';
import { loadBillingConfig } from '../../../services/billing/src/config';
import { loadCmsConfig } from '../../../services/cms/src/config';
import { loadLlmConfig } from '../../../services/llm/src/config';
import { loadMailerConfig } from '../../../services/mailer/src/config';
import { loadNotificationsConfig } from '../../../services/notifications/src/config';
import type { ServiceName } from './paths';

const LOADERS = {
  auth: loadAuthConfig,
  billing: loadBillingConfig,
  cms: loadCmsConfig,
  llm: loadLlmConfig,
  mailer: loadMailerConfig,
  notifications: loadNotificationsConfig,
} satisfies Record<ServiceName, (env: NodeJS.ProcessEnv) => unknown>;

/** Both configurations of `service` from `env` (entries without a value are left out); throws a ConfigError. */
export function loadServiceConfig<S extends ServiceName>(
  service: S,
  env: Record<string, string | null | undefined>,
): { platform: PlatformConfig; service: ReturnType<(typeof LOADERS)[S]> } {
  const defined = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== null && v !== undefined),
  ) as NodeJS.ProcessEnv;
  return {
    platform: loadPlatformConfig(defined),
    service: LOADERS[service](defined) as ReturnType<(typeof LOADERS)[S]>,
  };
}
