/**
 * A small, offline Kustomize renderer for the features k8s/ uses, so that CI can render and
 * validate the overlays without the kustomize binary:
 *   resources (files and directories with their own kustomization.yaml), components
 *   (directories holding a `kind: Component`), namespace, labels (pairs, includeSelectors:
 *   false), images (newName/newTag/digest), and patches (strategic merge or JSON 6902, by
 *   `target` selector or by the patch's own kind and name).
 * Anything else in a kustomization.yaml is refused, so an overlay cannot quietly use a feature
 * this renderer does not apply (real kustomize would then render something different).
 * Its output was checked against `kubectl kustomize` (kustomize v5.5): see `pnpm --filter
 * @platform/deploy render --compare-kubectl`.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

export type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
};

type Json = unknown;
type JsonObject = Record<string, Json>;

interface Target {
  kind?: string;
  name?: string;
  group?: string;
  version?: string;
  labelSelector?: string;
}

interface PatchEntry {
  path?: string;
  patch?: string;
  target?: Target;
}

interface ImageEntry {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

interface LabelEntry {
  pairs: Record<string, string>;
  includeSelectors?: boolean;
  includeTemplates?: boolean;
}

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  resources?: string[];
  components?: string[];
  namespace?: string;
  labels?: LabelEntry[];
  images?: ImageEntry[];
  patches?: PatchEntry[];
}

const SUPPORTED = new Set([
  'apiVersion',
  'kind',
  'resources',
  'components',
  'namespace',
  'labels',
  'images',
  'patches',
]);

const isObject = (value: Json): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every non-empty YAML document of a file (a file may hold several, separated by `---`). */
export function readYamlDocuments(file: string): Json[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  return docs
    .map((doc) => {
      if (doc.errors.length) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
      return doc.toJS({ maxAliasCount: -1 }) as Json;
    })
    .filter((doc) => doc !== null && doc !== undefined);
}

function asManifest(doc: Json, file: string): Manifest {
  if (!isObject(doc) || typeof doc.kind !== 'string' || typeof doc.apiVersion !== 'string' || !isObject(doc.metadata)) {
    throw new Error(`${file}: not a Kubernetes object (apiVersion, kind and metadata are required)`);
  }
  if (typeof doc.metadata.name !== 'string') throw new Error(`${file}: ${doc.kind} without metadata.name`);
  return doc as Manifest;
}

const clone = <T>(value: T): T => structuredClone(value);

// ---- strategic merge ------------------------------------------------------------------------

/** Patch merge keys of the Kubernetes list fields the patches may touch; other lists are replaced. */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  ports: 'containerPort',
  imagePullSecrets: 'name',
};

export function strategicMerge(base: Json, patch: Json, field = ''): Json {
  if (patch === null) return undefined; // `key: null` deletes
  if (isObject(base) && isObject(patch)) {
    const out: JsonObject = { ...base };
    for (const [key, value] of Object.entries(patch)) {
      if (key === '$patch') throw new Error('$patch directives are not supported');
      const merged = strategicMerge(base[key], value, key);
      if (merged === undefined) delete out[key];
      else out[key] = merged;
    }
    return out;
  }
  const mergeKey = MERGE_KEYS[field];
  if (Array.isArray(base) && Array.isArray(patch) && mergeKey) {
    const out = base.map((item) => clone(item));
    for (const item of patch) {
      const index = isObject(item)
        ? out.findIndex((existing) => isObject(existing) && existing[mergeKey] === item[mergeKey])
        : -1;
      if (index >= 0) out[index] = strategicMerge(out[index], item, '');
      else out.push(clone(item));
    }
    return out;
  }
  return clone(patch);
}

// ---- JSON 6902 ------------------------------------------------------------------------------

interface JsonPatchOp {
  op: 'add' | 'replace' | 'remove';
  path: string;
  value?: Json;
}

const pointer = (p: string) =>
  p
    .split('/')
    .slice(1)
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));

export function applyJsonPatch(doc: Json, ops: JsonPatchOp[]): Json {
  const out = clone(doc);
  for (const op of ops) {
    if (!['add', 'replace', 'remove'].includes(op.op)) throw new Error(`JSON patch op "${op.op}" is not supported`);
    const tokens = pointer(op.path);
    const last = tokens.pop();
    if (last === undefined) throw new Error(`JSON patch path "${op.path}" is empty`);
    let parent: Json = out;
    for (const token of tokens) {
      const next: Json = Array.isArray(parent) ? parent[Number(token)] : isObject(parent) ? parent[token] : undefined;
      if (next === undefined) throw new Error(`JSON patch path "${op.path}" does not exist`);
      parent = next;
    }
    if (Array.isArray(parent)) {
      const index = last === '-' ? parent.length : Number(last);
      if (op.op === 'add') parent.splice(index, 0, clone(op.value));
      else if (index >= parent.length) throw new Error(`JSON patch path "${op.path}" does not exist`);
      else if (op.op === 'replace') parent[index] = clone(op.value);
      else parent.splice(index, 1);
    } else if (isObject(parent)) {
      if (op.op !== 'add' && !(last in parent)) throw new Error(`JSON patch path "${op.path}" does not exist`);
      if (op.op === 'remove') delete parent[last];
      else parent[last] = clone(op.value);
    } else {
      throw new Error(`JSON patch path "${op.path}" does not exist`);
    }
  }
  return out;
}

// ---- transformers -----------------------------------------------------------------------------

function matchesLabels(manifest: Manifest, selector: string): boolean {
  return selector.split(',').every((term) => {
    const [key, value] = term.split('=').map((s) => s.trim());
    return manifest.metadata.labels?.[key] === value;
  });
}

function matches(manifest: Manifest, target: Target): boolean {
  const [group, version] = manifest.apiVersion.includes('/')
    ? manifest.apiVersion.split('/')
    : ['', manifest.apiVersion];
  if (target.kind !== undefined && target.kind !== manifest.kind) return false;
  if (target.name !== undefined && !new RegExp(`^(?:${target.name})$`).test(manifest.metadata.name)) return false;
  if (target.group !== undefined && target.group !== group) return false;
  if (target.version !== undefined && target.version !== version) return false;
  if (target.labelSelector !== undefined && !matchesLabels(manifest, target.labelSelector)) return false;
  return true;
}

function applyPatch(resources: Manifest[], entry: PatchEntry, dir: string): Manifest[] {
  const source = entry.path ? readFileSync(path.join(dir, entry.path), 'utf8') : entry.patch;
  if (!source) throw new Error(`${dir}: a patch needs path or patch`);
  const docs = parseAllDocuments(source).map((d) => d.toJS() as Json);
  if (docs.length !== 1) throw new Error(`${dir}: patch ${entry.path ?? ''} must hold exactly one document`);
  const body = docs[0];
  const isJsonPatch = Array.isArray(body);
  let target = entry.target;
  if (!target) {
    if (isJsonPatch || !isObject(body) || !isObject(body.metadata))
      throw new Error(`${dir}: patch ${entry.path ?? ''} needs a target`);
    target = { kind: body.kind as string, name: body.metadata.name as string };
  }
  let hits = 0;
  const out = resources.map((manifest) => {
    if (!matches(manifest, target)) return manifest;
    hits++;
    if (isJsonPatch) return applyJsonPatch(manifest, body as JsonPatchOp[]) as Manifest;
    const { metadata, ...rest } = body as JsonObject;
    // with a target, the patch's own name and kind do not matter (as in kustomize)
    const patchMeta = isObject(metadata) ? { ...metadata } : {};
    delete patchMeta.name;
    delete patchMeta.namespace;
    delete rest.apiVersion;
    delete rest.kind;
    return strategicMerge(manifest, { ...rest, metadata: patchMeta }) as Manifest;
  });
  if (!hits) throw new Error(`${dir}: patch ${entry.path ?? ''} matches no resource (${JSON.stringify(target)})`);
  return out;
}

function podSpecsOf(manifest: Manifest): JsonObject[] {
  const spec = manifest.spec as JsonObject | undefined;
  if (!spec) return [];
  const template = (spec.template ??
    (isObject(spec.jobTemplate) ? (spec.jobTemplate.spec as JsonObject)?.template : undefined)) as
    | JsonObject
    | undefined;
  return template && isObject(template.spec) ? [template.spec] : [];
}

function applyImages(resources: Manifest[], images: ImageEntry[]): Manifest[] {
  return resources.map((manifest) => {
    const out = clone(manifest);
    for (const podSpec of podSpecsOf(out)) {
      for (const list of ['containers', 'initContainers']) {
        for (const container of (podSpec[list] as JsonObject[] | undefined) ?? []) {
          const image = container.image as string;
          const at = image.indexOf('@');
          const colon = image.lastIndexOf(':');
          const nameEnd = at >= 0 ? at : colon > image.lastIndexOf('/') ? colon : image.length;
          const name = image.slice(0, nameEnd);
          const rule = images.find((i) => i.name === name);
          if (!rule) continue;
          const suffix = rule.digest ? `@${rule.digest}` : rule.newTag ? `:${rule.newTag}` : image.slice(nameEnd);
          container.image = `${rule.newName ?? name}${suffix}`;
        }
      }
    }
    return out;
  });
}

function applyLabels(resources: Manifest[], entries: LabelEntry[]): Manifest[] {
  for (const entry of entries) {
    if (entry.includeSelectors)
      throw new Error('labels with includeSelectors: true are not supported (selectors are immutable)');
    if (entry.includeTemplates) throw new Error('labels with includeTemplates: true are not supported');
  }
  return resources.map((manifest) => {
    const out = clone(manifest);
    for (const entry of entries) out.metadata.labels = { ...out.metadata.labels, ...entry.pairs };
    return out;
  });
}

type KustomizationKind = 'Kustomization' | 'Component';

function readKustomization(dir: string, kind: KustomizationKind): { file: string; kustomization: Kustomization } {
  const file = path.join(dir, 'kustomization.yaml');
  const kustomization = readYamlDocuments(file)[0] as Kustomization;
  const unsupported = Object.keys(kustomization).filter((key) => !SUPPORTED.has(key));
  if (unsupported.length) throw new Error(`${file}: not supported by the offline renderer: ${unsupported.join(', ')}`);
  // as kustomize: a Component is listed under components only, a Kustomization under resources only
  const actual = kustomization.kind ?? 'Kustomization';
  if (actual !== kind) throw new Error(`${file}: expected kind ${kind}, got ${actual}`);
  return { file, kustomization };
}

/**
 * Adds the kustomization's resources to `accumulated`, then applies its components, then its
 * own transformers to everything accumulated. A Kustomization starts from nothing; a Component
 * works on its parent's accumulated resources (kustomize's order: resources, components, then
 * the parent's patches, namespace, labels, images).
 */
function accumulate(dir: string, kind: KustomizationKind, accumulated: Manifest[]): Manifest[] {
  const { file, kustomization } = readKustomization(dir, kind);
  let resources = [...accumulated];
  for (const entry of kustomization.resources ?? []) {
    const full = path.resolve(dir, entry);
    if (statSync(full).isDirectory()) resources.push(...accumulate(full, 'Kustomization', []));
    else resources.push(...readYamlDocuments(full).map((doc) => asManifest(doc, full)));
  }
  const seen = new Set<string>();
  for (const r of resources) {
    const id = `${r.kind}/${r.metadata.name}`;
    if (seen.has(id)) throw new Error(`${file}: ${id} is defined twice`);
    seen.add(id);
  }
  for (const entry of kustomization.components ?? []) {
    resources = accumulate(path.resolve(dir, entry), 'Component', resources);
  }
  // the order kustomize applies its built-in transformers in
  for (const patch of kustomization.patches ?? []) resources = applyPatch(resources, patch, dir);
  if (kustomization.namespace) {
    const namespace = kustomization.namespace;
    resources = resources.map((r) => ({ ...r, metadata: { ...r.metadata, namespace } }));
  }
  if (kustomization.labels) resources = applyLabels(resources, kustomization.labels);
  if (kustomization.images) resources = applyImages(resources, kustomization.images);
  return resources;
}

/** Renders the kustomization in `dir` (a directory holding kustomization.yaml). */
export function render(dir: string): Manifest[] {
  return accumulate(dir, 'Kustomization', []);
}
