import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A resource the server offers: the project's contracts and the services' README sections. */
export interface McpResource {
  uri: string;
  name: string;
  description: string;
  mimeType: string;
  text(): string;
}

const ROOT = path.resolve(__dirname, '../../..');

/** `## ` sections of a README, each with its heading. */
function sections(markdown: string): { title: string; text: string }[] {
  const parts = markdown.split(/^(?=## )/m);
  return parts
    .filter((part) => part.startsWith('## '))
    .map((part) => ({ title: part.slice(3, part.indexOf('\n')).trim(), text: part.trim() }));
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const built = new WeakMap<Record<string, object>, McpResource[]>();

/** The OpenAPI document of each service, and each `## ` section of its README (when the README is there); read once per set of documents. */
export function resourcesOf(documents: Record<string, object>): McpResource[] {
  const known = built.get(documents);
  if (known) return known;
  const resources: McpResource[] = [];
  built.set(documents, resources);
  for (const [service, document] of Object.entries(documents)) {
    resources.push({
      uri: `openapi://${service}`,
      name: `${service} OpenAPI document`,
      description: `The ${service} service's contract (OpenAPI 3.1): every operation, its parameters and answers`,
      mimeType: 'application/json',
      text: () => JSON.stringify(document),
    });
    const readme = path.join(ROOT, 'services', service, 'README.md');
    if (!existsSync(readme)) continue;
    for (const section of sections(readFileSync(readme, 'utf8')))
      resources.push({
        uri: `readme://${service}/${slug(section.title)}`,
        name: `${service} README: ${section.title}`,
        description: `The "${section.title}" section of the ${service} service's README`,
        mimeType: 'text/markdown',
        text: () => section.text,
      });
  }
  return resources;
}
