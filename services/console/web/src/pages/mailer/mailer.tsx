/** The Mailer of a project: templates, providers, logs, suppression list and statistics, one section at a time. */
import { useRoute } from 'preact-iso';
import { useMailerContext } from './mailer-ui';
import { Logs } from './logs';
import { Providers } from './providers';
import { Statistics } from './statistics';
import { Suppressions } from './suppressions';
import { TemplateEditor } from './template-editor';
import { Templates } from './templates';

const SECTIONS = [
  { path: 'templates', label: 'Templates' },
  { path: 'providers', label: 'Providers' },
  { path: 'logs', label: 'Logs' },
  { path: 'suppressions', label: 'Suppression list' },
  { path: 'statistics', label: 'Statistics' },
] as const;

export function Mailer() {
  const {
    orgId,
    projectId,
    section = 'templates',
    item,
  } = useRoute().params as {
    orgId: string;
    projectId: string;
    section?: string;
    item?: string;
  };
  const context = useMailerContext(orgId, projectId);
  const base = `/orgs/${orgId}/projects/${projectId}/mailer`;
  const current = SECTIONS.find((entry) => entry.path === section);
  return (
    <section>
      <p class="crumbs">
        <a href="/">Organisations</a> / <a href={`/orgs/${orgId}`}>{context.orgName ?? orgId}</a> /{' '}
        <a href={`/orgs/${orgId}/projects/${projectId}`}>Project</a> / Mailer
      </p>
      <h1>Mailer</h1>
      <nav aria-label="Mailer" class="actions tabs">
        {SECTIONS.map((entry) => (
          <a key={entry.path} href={`${base}/${entry.path}`} aria-current={entry.path === section ? 'page' : undefined}>
            {entry.label}
          </a>
        ))}
      </nav>
      {section === 'templates' && !item && <Templates context={context} base={base} />}
      {section === 'templates' && item && <TemplateEditor context={context} base={base} templateId={item} />}
      {section === 'providers' && <Providers context={context} />}
      {section === 'logs' && <Logs context={context} />}
      {section === 'suppressions' && <Suppressions context={context} />}
      {section === 'statistics' && <Statistics context={context} />}
      {!current && <p>There is no such Mailer page.</p>}
    </section>
  );
}
