/** What the LLM pages share: the project's client, the member's role, and the section's heading and navigation. */
import type { llm } from '@platform/client';
import { useQuery } from '@tanstack/preact-query';
import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { controlPlane, projectClient, unwrap } from '../../api';
import { may } from '../../roles';

export type LlmSchemas = llm.components['schemas'];
export type LlmClient = ReturnType<typeof projectClient>['llm'];

export interface LlmProject {
  orgId: string;
  projectId: string;
  client: LlmClient;
  /** Whether the member's role may change the project's LLM settings (the service refuses a viewer's writes). */
  canWrite: boolean;
}

export function useLlmProject(): LlmProject & { orgName?: string } {
  const { orgId, projectId } = useRoute().params as { orgId: string; projectId: string };
  const client = useMemo(() => projectClient(orgId, projectId).llm, [orgId, projectId]);
  const org = useQuery({
    queryKey: ['organisation', orgId],
    queryFn: () => unwrap(controlPlane.getOrganisation({ params: { path: { orgId } } })),
  });
  return { orgId, projectId, client, canWrite: may(org.data?.role).writeSettings, orgName: org.data?.name };
}

const PAGES = [
  { path: '', name: 'Settings' },
  { path: '/usage', name: 'Usage' },
  { path: '/logs', name: 'Logs' },
] as const;

/** The section's frame: crumbs, the page's heading and the links between the three LLM pages. */
export function LlmFrame(props: {
  project: LlmProject & { orgName?: string };
  title: (typeof PAGES)[number]['name'];
  children: ComponentChildren;
}) {
  const { orgId, projectId } = props.project;
  const base = `/orgs/${orgId}/projects/${projectId}/llm`;
  return (
    <section>
      <p class="crumbs">
        <a href="/">Organisations</a> / <a href={`/orgs/${orgId}`}>{props.project.orgName ?? orgId}</a> /{' '}
        <a href={`/orgs/${orgId}/projects/${projectId}`}>Project</a> / LLM
      </p>
      <h1>LLM {props.title.toLowerCase()}</h1>
      <nav aria-label="LLM pages" class="actions tabs">
        {PAGES.map((page) => (
          <a key={page.path} href={`${base}${page.path}`} aria-current={page.name === props.title ? 'page' : undefined}>
            {page.name}
          </a>
        ))}
      </nav>
      {props.children}
    </section>
  );
}
