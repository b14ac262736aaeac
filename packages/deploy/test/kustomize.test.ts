import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { applyJsonPatch, render, strategicMerge } from '../src/kustomize';

function kustomizeDir(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'kustomize-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: web
          image: platform/web
          env:
            - {name: A, value: "1"}
`;

describe('offline kustomize renderer', () => {
  test('when a strategic merge patch names a container, then it merges into that container by name', () => {
    const base = {
      spec: {
        containers: [
          { name: 'a', image: 'x', env: [{ name: 'A', value: '1' }] },
          { name: 'b', image: 'y' },
        ],
      },
    };
    const patch = {
      spec: {
        containers: [
          {
            name: 'a',
            env: [
              { name: 'B', value: '2' },
              { name: 'A', value: '3' },
            ],
          },
        ],
      },
    };
    expect(strategicMerge(base, patch)).toEqual({
      spec: {
        containers: [
          {
            name: 'a',
            image: 'x',
            env: [
              { name: 'A', value: '3' },
              { name: 'B', value: '2' },
            ],
          },
          { name: 'b', image: 'y' },
        ],
      },
    });
  });

  test('when a JSON patch replaces a path that does not exist, then rendering fails', () => {
    expect(() => applyJsonPatch({ spec: {} }, [{ op: 'replace', path: '/spec/rules/0/host', value: 'x' }])).toThrow(
      /does not exist/,
    );
    expect(applyJsonPatch({ a: { 'b/c': 1 } }, [{ op: 'replace', path: '/a/b~1c', value: 2 }])).toEqual({
      a: { 'b/c': 2 },
    });
  });

  test('when an overlay sets namespace, labels, images and a targeted patch, then each is applied', () => {
    const base = kustomizeDir({
      'kustomization.yaml': 'resources:\n  - deployment.yaml\n',
      'deployment.yaml': deployment,
    });
    const overlay = kustomizeDir({
      'kustomization.yaml': `resources:\n  - ${base}\nnamespace: ns\nlabels:\n  - pairs: {tier: t}\n    includeSelectors: false\nimages:\n  - name: platform/web\n    newName: reg/web\n    newTag: "2"\npatches:\n  - path: p.yaml\n    target: {kind: Deployment}\n`,
      'p.yaml':
        'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ignored}\nspec:\n  template:\n    spec:\n      containers:\n        - name: web\n          env:\n            - {name: B, value: "2"}\n',
    });
    const [out] = render(overlay) as unknown as [
      {
        metadata: { namespace: string; labels: Record<string, string> };
        spec: { selector: unknown; template: { spec: { containers: { image: string; env: unknown[] }[] } } };
      },
    ];
    expect(out.metadata.namespace).toBe('ns');
    expect(out.metadata.labels).toEqual({ tier: 't' });
    expect(out.spec.selector).toEqual({ matchLabels: { app: 'web' } });
    expect(out.spec.template.spec.containers[0].image).toBe('reg/web:2');
    expect(out.spec.template.spec.containers[0].env).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: '2' },
    ]);
  });

  test('when a kustomization uses a feature the renderer does not implement, then it refuses rather than ignore it', () => {
    const dir = kustomizeDir({
      'kustomization.yaml': 'namePrefix: x-\nresources:\n  - d.yaml\n',
      'd.yaml': deployment,
    });
    expect(() => render(dir)).toThrow(/not supported by the offline renderer: namePrefix/);
  });

  test('when a kustomization lists a component, then the component patches its resources before the kustomization own patches', () => {
    const component = kustomizeDir({
      'kustomization.yaml':
        'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n  - cm.yaml\npatches:\n  - path: p.yaml\n    target: {kind: Deployment}\n',
      'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shared}\ndata: {A: "1"}\n',
      'p.yaml':
        '- op: add\n  path: /spec/template/spec/containers/0/imagePullPolicy\n  value: IfNotPresent\n- op: add\n  path: /spec/revisionHistoryLimit\n  value: 5\n',
    });
    const dir = kustomizeDir({
      'kustomization.yaml': `resources:\n  - d.yaml\ncomponents:\n  - ${component}\npatches:\n  - target: {kind: Deployment, name: web}\n    patch: |-\n      - op: replace\n        path: /spec/revisionHistoryLimit\n        value: 2\n`,
      'd.yaml': deployment,
    });
    const out = render(dir) as unknown as {
      kind: string;
      spec: { revisionHistoryLimit?: number; template: { spec: { containers: { imagePullPolicy?: string }[] } } };
    }[];
    expect(out.map((m) => m.kind)).toEqual(['Deployment', 'ConfigMap']);
    expect(out[0].spec.template.spec.containers[0].imagePullPolicy).toBe('IfNotPresent');
    expect(out[0].spec.revisionHistoryLimit).toBe(2);
  });

  test('when a Component is listed as a resource or a Kustomization as a component, then rendering fails (as kustomize)', () => {
    const component = kustomizeDir({
      'kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n',
    });
    const plain = kustomizeDir({ 'kustomization.yaml': 'resources:\n  - d.yaml\n', 'd.yaml': deployment });
    expect(() => render(kustomizeDir({ 'kustomization.yaml': `resources:\n  - ${component}\n` }))).toThrow(
      /expected kind Kustomization, got Component/,
    );
    expect(() => render(kustomizeDir({ 'kustomization.yaml': `components:\n  - ${plain}\n` }))).toThrow(
      /expected kind Component, got Kustomization/,
    );
  });

  test('when a patch matches no resource, then rendering fails', () => {
    const dir = kustomizeDir({
      'kustomization.yaml': 'resources:\n  - d.yaml\npatches:\n  - path: p.yaml\n',
      'd.yaml': deployment,
      'p.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: other}\nspec: {}\n',
    });
    expect(() => render(dir)).toThrow(/matches no resource/);
  });
});
