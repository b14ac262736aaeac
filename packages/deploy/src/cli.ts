/**
 * pnpm --filter @platform/deploy render [dev|prod] [--compare-kubectl]
 * Prints an overlay as rendered by the offline renderer (src/kustomize.ts). With
 * --compare-kubectl, renders it with `kubectl kustomize` as well (where kubectl exists) and
 * reports every resource that differs, so the renderer can be checked against the real thing.
 */
import { execFileSync } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';
import { parseAllDocuments, stringify } from 'yaml';
import { overlayDir, OVERLAYS } from './paths';
import { render, type Manifest } from './kustomize';

const args = process.argv.slice(2);
const compare = args.includes('--compare-kubectl');
const overlays = args.filter((a) => !a.startsWith('--'));
const names = overlays.length ? overlays : [...OVERLAYS];

const key = (m: Manifest) => `${m.kind}/${m.metadata.namespace ?? ''}/${m.metadata.name}`;
let failed = false;
for (const name of names) {
  const ours = render(overlayDir(name));
  if (!compare) {
    process.stdout.write(ours.map((m) => stringify(m)).join('---\n'));
    continue;
  }
  const output = execFileSync('kubectl', ['kustomize', overlayDir(name)], { encoding: 'utf8' });
  const theirs = new Map(
    parseAllDocuments(output)
      .map((d) => d.toJS() as Manifest)
      .map((m) => [key(m), m]),
  );
  const mine = new Map(ours.map((m) => [key(m), m]));
  const ids = new Set([...theirs.keys(), ...mine.keys()]);
  const differing = [...ids].filter((id) => !isDeepStrictEqual(theirs.get(id), mine.get(id)));
  process.stdout.write(
    `${name}: ${ids.size} resources, ${differing.length} differ from kubectl kustomize${differing.length ? `: ${differing.join(', ')}` : ''}\n`,
  );
  if (differing.length) failed = true;
}
process.exit(failed ? 1 : 0);
