/** Offline checks of the deployment files (Dockerfile, docker-compose.yml, k8s/). */
export { render, strategicMerge, applyJsonPatch, readYamlDocuments, type Manifest } from './kustomize';
export { readCompose, parseDotenv, interpolate, interpolateAll, dependencyClosure } from './compose';
export { composeSchemaErrors } from './compose-schema';
export { kubernetesSchemaError } from './k8s-schema';
export { parseDockerfile, effectiveInstructions } from './dockerfile';
export { REPO_ROOT, K8S_DIR, OVERLAYS, SERVICES, SERVICE_NAMES } from './paths';
