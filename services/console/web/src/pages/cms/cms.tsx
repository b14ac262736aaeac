/** The CMS section of a project: its tabs, the member's role, and each page's code loaded on demand. */
import { useQuery } from '@tanstack/preact-query';
import { useMemo } from 'preact/hooks';
import { lazy, Route, Router, useLocation, useRoute } from 'preact-iso';
import { controlPlane, projectClient, unwrap } from '../../api';
import { may } from '../../roles';
import { messageOf, Notice } from '../../ui';
import { CmsContext, type CmsProject } from './cms-context';

const ContentList = lazy(() => import('./content-list').then((m) => m.ContentList));
const NewContent = lazy(() => import('./content-new').then((m) => m.NewContent));
const ContentEditor = lazy(() => import('./content-editor').then((m) => m.ContentEditor));
const ContentTypes = lazy(() => import('./content-types').then((m) => m.ContentTypes));
const ContentTypeEditor = lazy(() => import('./content-type').then((m) => m.ContentTypeEditor));
const Webhooks = lazy(() => import('./webhooks').then((m) => m.Webhooks));

function Missing() {
  return <Notice kind="error">No such CMS page.</Notice>;
}

export function Cms() {
  const { orgId, projectId } = useRoute().params as { orgId: string; projectId: string };
  const { path } = useLocation();
  const org = useQuery({
    queryKey: ['organisation', orgId],
    queryFn: () => unwrap(controlPlane.getOrganisation({ params: { path: { orgId } } })),
  });
  const projectHome = `/orgs/${orgId}/projects/${projectId}`;
  const base = `${projectHome}/cms`;
  const writes = may(org.data?.role).writeSettings;
  const project = useMemo<CmsProject>(
    () => ({ projectId, base, client: projectClient(orgId, projectId), writes }),
    [orgId, projectId, writes],
  );
  if (org.error) return <Notice kind="error">{messageOf(org.error)}</Notice>;
  // The role decides which controls exist: nothing is drawn before it is known.
  if (!org.data) return <p>Loading…</p>;
  const tab = (href: string, label: string, current: boolean) => (
    <a href={href} aria-current={current ? 'page' : undefined}>
      {label}
    </a>
  );
  return (
    <CmsContext.Provider value={project}>
      <p class="crumbs">
        <a href={`/orgs/${orgId}`}>{org.data.name}</a> / <a href={projectHome}>Project</a> / CMS
      </p>
      <nav aria-label="CMS" class="tabs">
        {tab(base, 'Content', path === base || path.startsWith(`${base}/content`))}
        {tab(`${base}/types`, 'Content types', path.startsWith(`${base}/types`))}
        {tab(`${base}/webhooks`, 'Webhooks', path.startsWith(`${base}/webhooks`))}
      </nav>
      <Router>
        <Route path="/" component={ContentList} />
        <Route path="/content/new" component={NewContent} />
        <Route path="/content/:contentId" component={ContentEditor} />
        <Route path="/types" component={ContentTypes} />
        <Route path="/types/:typeId" component={ContentTypeEditor} />
        <Route path="/webhooks" component={Webhooks} />
        <Route default component={Missing} />
      </Router>
    </CmsContext.Provider>
  );
}
