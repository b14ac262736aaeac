/**
 * k8s/components/service holds what every service's workloads share; the service folders
 * under k8s/base/ hold only what is their own. These checks read the component's patches and
 * require every service resource in the rendered base to carry them, so a folder that forgets
 * the component (or overrides a shared setting by accident) fails here.
 */
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { K8S_DIR, SERVICE_NAMES } from './support/paths';
import { kustomize, readYamlDocuments, type Manifest } from './support/stock-tools';

type Json = unknown;
type JsonObject = Record<string, Json>;
const isObject = (value: Json): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const COMPONENT_DIR = path.join(K8S_DIR, 'components', 'service');
const CONTAINER = '/spec/template/spec/containers/0/';
/** Workloads whose folder overrides the component's sizing (resources, HPA range and target). */
const OWN_SIZING = new Set(['llm-worker']);

interface ComponentPatch {
  path: string;
  target: { kind: string };
}

const component = readYamlDocuments(path.join(COMPONENT_DIR, 'kustomization.yaml'))[0] as {
  kind: string;
  patches: ComponentPatch[];
};

/**
 * What the component guarantees on a resource of `kind`: the strategic merge patches as they
 * are, the container's JSON patch ops as a container the resource must hold (an op inserting
 * into a list becomes an item that list must contain).
 */
function expectedFor(kind: string): JsonObject {
  const expected: JsonObject = {};
  const container: JsonObject = {};
  for (const patch of component.patches.filter((p) => p.target.kind === kind)) {
    const [body] = readYamlDocuments(path.join(COMPONENT_DIR, patch.path));
    if (!Array.isArray(body)) {
      Object.assign(expected, { spec: (body as JsonObject).spec });
      continue;
    }
    for (const op of body as { op: string; path: string; value: Json }[]) {
      if (op.op !== 'add' || !op.path.startsWith(CONTAINER)) throw new Error(`unexpected op ${op.op} ${op.path}`);
      const [field, index] = op.path.slice(CONTAINER.length).split('/');
      container[field] = index === undefined ? op.value : [...((container[field] as Json[]) ?? []), op.value];
    }
  }
  if (Object.keys(container).length) {
    const spec = structuredClone((expected.spec as JsonObject) ?? {});
    const template = (spec.template ??= {}) as JsonObject;
    const podSpec = (template.spec ??= {}) as JsonObject;
    podSpec.containers = [container];
    expected.spec = spec;
  }
  return expected;
}

/**
 * Where `actual` lacks what `expected` has: objects key by key, lists item by item (any
 * position). A record with several fields (a container) that no item matches is reported
 * field by field against the closest item; a smaller one as a missing item.
 */
function gaps(actual: Json, expected: Json, at = ''): string[] {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${at}: missing`];
    return expected.flatMap((item) => {
      const byCandidate = actual.map((candidate, i) => gaps(candidate, item, `${at}[${i}]`));
      if (byCandidate.some((found) => found.length === 0)) return [];
      if (!isObject(item) || Object.keys(item).length < 2 || !actual.length)
        return [`${at}: no item ${JSON.stringify(item)}`];
      return byCandidate.reduce((closest, found) => (found.length < closest.length ? found : closest));
    });
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return [`${at}: missing`];
    return Object.entries(expected).flatMap(([key, value]) => gaps(actual[key], value, `${at}.${key}`));
  }
  return isDeepStrictEqual(actual, expected)
    ? []
    : [`${at}: ${JSON.stringify(actual)} instead of ${JSON.stringify(expected)}`];
}

/** The component's guarantees for one resource, less the sizing its folder owns. */
function expectedOf(manifest: Manifest): JsonObject {
  const expected = structuredClone(expectedFor(manifest.kind));
  if (OWN_SIZING.has(manifest.metadata.name)) {
    const spec = expected.spec as JsonObject;
    if (manifest.kind === 'HorizontalPodAutoscaler')
      for (const key of ['minReplicas', 'maxReplicas', 'metrics']) delete spec[key];
    if (manifest.kind === 'Deployment') {
      const [container] = ((spec.template as JsonObject).spec as JsonObject).containers as JsonObject[];
      delete container.resources;
    }
  }
  return expected;
}

const base = kustomize(path.join(K8S_DIR, 'base'));
const WORKLOADS = [...SERVICE_NAMES, 'llm-worker'];
const named = (kind: string, name: string) => {
  const found = base.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`${kind}/${name} is not in the base`);
  return found;
};

describe('k8s service component', () => {
  test('when the component is read, then it is a Kustomize Component patching every kind a service has', () => {
    expect(component.kind).toBe('Component');
    expect(component.patches.map((p) => p.target.kind).sort()).toEqual(
      ['Deployment', 'Deployment', 'HorizontalPodAutoscaler', 'Job', 'PodDisruptionBudget', 'Service'].sort(),
    );
  });

  test.each(SERVICE_NAMES)('when the %s folder is built, then it applies the component', (service) => {
    const kustomization = readYamlDocuments(path.join(K8S_DIR, 'base', service, 'kustomization.yaml'))[0] as {
      components?: string[];
    };
    expect(kustomization.components?.map((c) => path.resolve(K8S_DIR, 'base', service, c))).toEqual([COMPONENT_DIR]);
  });

  describe.each(WORKLOADS)('workload %s', (name) => {
    test.each(['Deployment', 'Service', 'HorizontalPodAutoscaler', 'PodDisruptionBudget'])(
      'when its %s is rendered, then it has every setting the component gives it',
      (kind) => {
        const manifest = named(kind, name);
        expect(gaps(manifest, expectedOf(manifest))).toEqual([]);
      },
    );
  });

  test.each(SERVICE_NAMES)(
    'when the %s migration Job is rendered, then it has every setting the component gives it',
    (service) => {
      const job = named('Job', `${service}-migrate`);
      expect(gaps(job, expectedOf(job))).toEqual([]);
    },
  );

  test('when a Deployment lacks a probe or weakens its security context, then the check reports it (it can fail)', () => {
    const broken = structuredClone(named('Deployment', 'billing')) as Manifest & {
      spec: { template: { spec: { containers: JsonObject[] } } };
    };
    const [container] = broken.spec.template.spec.containers;
    delete container.readinessProbe;
    (container.securityContext as JsonObject).readOnlyRootFilesystem = false;
    (container.envFrom as Json[]).pop();
    const container0 = '.spec.template.spec.containers[0]';
    expect(gaps(broken, expectedOf(broken))).toEqual([
      `${container0}.envFrom: no item {"secretRef":{"name":"platform-secrets"}}`,
      `${container0}.readinessProbe: missing`,
      `${container0}.securityContext.readOnlyRootFilesystem: false instead of true`,
    ]);
  });
});
