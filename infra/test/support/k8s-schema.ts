/**
 * Validation of rendered manifests against the Kubernetes OpenAPI schemas, offline, through the
 * `kubernetes-models` package (each model class carries the compiled JSON-schema validator of
 * its kind).
 */
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { CronJob, Job } from 'kubernetes-models/batch/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service, ServiceAccount } from 'kubernetes-models/v1';
import type { Manifest } from './stock-tools';

type ModelClass = new (data: never) => { validate(): void };

const MODELS: Record<string, ModelClass> = {
  'apps/v1/Deployment': Deployment as unknown as ModelClass,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler as unknown as ModelClass,
  'batch/v1/Job': Job as unknown as ModelClass,
  'batch/v1/CronJob': CronJob as unknown as ModelClass,
  'networking.k8s.io/v1/Ingress': Ingress as unknown as ModelClass,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy as unknown as ModelClass,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget as unknown as ModelClass,
  'v1/ConfigMap': ConfigMap as unknown as ModelClass,
  'v1/Secret': Secret as unknown as ModelClass,
  'v1/Service': Service as unknown as ModelClass,
  'v1/ServiceAccount': ServiceAccount as unknown as ModelClass,
};

/** The schema error of one manifest, or undefined when it is valid. Unknown kinds are errors. */
export function kubernetesSchemaError(manifest: Manifest): string | undefined {
  const id = `${manifest.apiVersion}/${manifest.kind}`;
  const Model = MODELS[id];
  if (!Model) return `${id} ${manifest.metadata?.name}: no schema known for this apiVersion/kind`;
  try {
    new Model(manifest as never).validate();
    return undefined;
  } catch (error) {
    return `${id} ${manifest.metadata.name}: ${(error as Error).message}`;
  }
}
