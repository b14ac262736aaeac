/**
 * Unknown-field check for rendered manifests. The Kubernetes OpenAPI schemas do not forbid
 * extra properties, so a misspelled field (`readinesProbe`) passes schema validation and is
 * then ignored or refused by the API server. Here every manifest is type-checked as an object
 * literal against the `kubernetes-models` interface of its kind: TypeScript's excess-property
 * check reports every unknown field, at any depth. Offline, with the repository's TypeScript.
 */
import path from 'node:path';
import ts from 'typescript';
import type { Manifest } from './stock-tools';

const TYPES: Record<string, { module: string; type: string }> = {
  'apps/v1/Deployment': { module: 'kubernetes-models/apps/v1', type: 'IDeployment' },
  'autoscaling/v2/HorizontalPodAutoscaler': {
    module: 'kubernetes-models/autoscaling/v2',
    type: 'IHorizontalPodAutoscaler',
  },
  'batch/v1/Job': { module: 'kubernetes-models/batch/v1', type: 'IJob' },
  'batch/v1/CronJob': { module: 'kubernetes-models/batch/v1', type: 'ICronJob' },
  'networking.k8s.io/v1/Ingress': { module: 'kubernetes-models/networking.k8s.io/v1', type: 'IIngress' },
  'networking.k8s.io/v1/NetworkPolicy': { module: 'kubernetes-models/networking.k8s.io/v1', type: 'INetworkPolicy' },
  'policy/v1/PodDisruptionBudget': { module: 'kubernetes-models/policy/v1', type: 'IPodDisruptionBudget' },
  'v1/ConfigMap': { module: 'kubernetes-models/v1', type: 'IConfigMap' },
  'v1/Secret': { module: 'kubernetes-models/v1', type: 'ISecret' },
  'v1/Service': { module: 'kubernetes-models/v1', type: 'IService' },
};

/** One message per unknown field (or type mismatch) in `manifests`; empty when all are exact. */
export function unknownFieldErrors(manifests: Manifest[]): string[] {
  return unknownFieldErrorsByGroup({ manifests }).manifests;
}

/** The same for several groups of manifests at once (one TypeScript program: faster). */
export function unknownFieldErrorsByGroup(groups: Record<string, Manifest[]>): Record<string, string[]> {
  const file = path.join(__dirname, '__manifests_under_check__.ts');
  const lines: string[] = [];
  const imports = new Set<string>();
  let count = 0;
  for (const [group, manifests] of Object.entries(groups)) {
    for (const m of manifests) {
      const known = TYPES[`${m.apiVersion}/${m.kind}`];
      if (!known) throw new Error(`no type for ${m.apiVersion}/${m.kind}`);
      const alias = `${known.type}_${known.module.replace(/\W/g, '_')}`;
      imports.add(`import type { ${known.type} as ${alias} } from '${known.module}';`);
      lines.push(
        `// ${group}|${m.kind}/${m.metadata.name}\nexport const m${count++}: ${alias} = ${JSON.stringify(m, null, 1)};`,
      );
    }
  }
  const source = [...imports, ...lines].join('\n');

  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, onError, create) =>
    path.resolve(name) === file
      ? ts.createSourceFile(name, source, version, true)
      : getSourceFile(name, version, onError, create);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => path.resolve(name) === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  const sourceFile = program.getSourceFile(file)!;
  const result: Record<string, string[]> = Object.fromEntries(Object.keys(groups).map((g) => [g, []]));
  for (const d of ts.getPreEmitDiagnostics(program, sourceFile)) {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    // name the manifest: the nearest `// group|Kind/name` comment above the error
    const before = source.slice(0, d.start ?? 0);
    const label = d.start === undefined ? '' : before.slice(before.lastIndexOf('\n// ') + 4).split('\n')[0];
    const [group, name] = label.includes('|') ? label.split('|') : [Object.keys(groups)[0], label];
    result[group].push(`${name}: ${message.split('\n').at(-1)}`);
  }
  return result;
}
