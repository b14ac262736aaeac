import { readdirSync } from 'node:fs';
import path from 'node:path';
import { unknownFieldErrors, unknownFieldErrorsByGroup } from '../src/k8s-fields';
import { readYamlDocuments, render, type Manifest } from '../src/kustomize';
import { K8S_DIR, OVERLAYS, overlayDir } from '../src/paths';

const secretsDir = path.join(K8S_DIR, 'secrets');
const groups: Record<string, Manifest[]> = {
  ...Object.fromEntries(OVERLAYS.map((o) => [o, render(overlayDir(o))])),
  secrets: readdirSync(secretsDir).flatMap((f) => readYamlDocuments(path.join(secretsDir, f)) as Manifest[]),
};
// one TypeScript program for every group
const errors = unknownFieldErrorsByGroup(groups);

describe('k8s manifests have no unknown fields', () => {
  test.each([...OVERLAYS, 'secrets'])(
    'when the %s manifests are type-checked against the Kubernetes types, then no field is unknown',
    (group) => {
      expect(groups[group].length).toBeGreaterThan(0);
      expect(errors[group]).toEqual([]);
    },
  );

  test('when a field is misspelled deep in a pod spec, then it is reported with its manifest', () => {
    const deployment = groups.dev.find((m) => m.kind === 'Deployment')!;
    const broken = structuredClone(deployment) as Manifest & {
      spec: { template: { spec: { containers: Record<string, unknown>[] } } };
    };
    broken.spec.template.spec.containers[0].readinesProbe = { httpGet: { path: '/readyz', port: 'http' } };
    const found = unknownFieldErrors([broken]);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(new RegExp(`Deployment/${deployment.metadata.name}: .*readinesProbe`));
  });
});
