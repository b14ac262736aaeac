import { readdirSync } from 'node:fs';
import path from 'node:path';
import { unknownFieldErrors, unknownFieldErrorsByGroup } from './support/k8s-fields';
import { K8S_DIR, OVERLAYS, overlayDir } from './support/paths';
import { kustomize, readYamlDocuments, type Manifest } from './support/stock-tools';

const secretsDir = path.join(K8S_DIR, 'secrets');
const groups: Record<string, Manifest[]> = {
  ...Object.fromEntries(OVERLAYS.map((o) => [o, kustomize(overlayDir(o))])),
  secrets: readdirSync(secretsDir).flatMap((f) => readYamlDocuments(path.join(secretsDir, f)) as Manifest[]),
};
// one TypeScript program for every group
const errors = unknownFieldErrorsByGroup(groups);

describe('k8s manifests have no unknown fields', () => {
  test.each(Object.keys(groups))(
    'when the %s manifests are type-checked against the Kubernetes types, then no field is unknown',
    (group) => {
      expect(groups[group].length).toBeGreaterThan(0);
      expect(errors[group]).toEqual([]);
    },
  );

  test('when a field is misspelled deep in a pod spec, then it is reported with its manifest', () => {
    const deployment = readYamlDocuments(path.join(K8S_DIR, 'base', 'auth', 'deployment.yaml'))[0] as Manifest;
    const broken = structuredClone(deployment) as Manifest & {
      spec: { template: { spec: { containers: Record<string, unknown>[] } } };
    };
    broken.spec.template.spec.containers[0].readinesProbe = { httpGet: { path: '/readyz', port: 'http' } };
    const found = unknownFieldErrors([broken]);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(new RegExp(`Deployment/${deployment.metadata.name}: .*readinesProbe`));
  });
});
