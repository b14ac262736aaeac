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

  test('when a patch matches no resource, then rendering fails', () => {
    const dir = kustomizeDir({
      'kustomization.yaml': 'resources:\n  - d.yaml\npatches:\n  - path: p.yaml\n',
      'd.yaml': deployment,
      'p.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: other}\nspec: {}\n',
    });
    expect(() => render(dir)).toThrow(/matches no resource/);
  });
});
