import path from 'node:path';

/** The repository root (infra/test/support -> ../../..). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const K8S_DIR = path.join(REPO_ROOT, 'k8s');
export const OVERLAYS = ['dev', 'prod'] as const;
export const overlayDir = (name: string) => path.join(K8S_DIR, 'overlays', name);

/** The six services and their ports (RESOLUTIONS section 9). */
export const SERVICES = {
  auth: 4001,
  billing: 4002,
  cms: 4003,
  llm: 4004,
  mailer: 4005,
  notifications: 4006,
} as const;
export type ServiceName = keyof typeof SERVICES;
/** The seventh deployable: the control plane (services/console), deployed beside the six. */
export const CONSOLE = { name: 'console', port: 4000 } as const;
export const SERVICE_NAMES = Object.keys(SERVICES) as ServiceName[];
