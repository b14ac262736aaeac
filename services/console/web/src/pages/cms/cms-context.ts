/** What every CMS page shares: the project's client, its addresses, and whether the member may write. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { cms, PlatformClient } from '@platform/client';

export type ContentItem = cms.components['schemas']['ContentItem'];
export type ContentSummary = cms.components['schemas']['ContentSummary'];
export type ContentKind = ContentItem['type'];
export type ContentStatus = ContentItem['status'];
export type Revision = cms.components['schemas']['Revision'];
export type ContentType = cms.components['schemas']['ContentType'];
export type Webhook = cms.components['schemas']['Webhook'];
export type ContentEvent = Webhook['events'][number];

export const CONTENT_KINDS: readonly ContentKind[] = ['blog', 'faq', 'page', 'custom'];
export const CONTENT_STATUSES: readonly ContentStatus[] = ['draft', 'published', 'archived'];
export const CONTENT_EVENTS: readonly ContentEvent[] = [
  'content.created',
  'content.updated',
  'content.published',
  'content.unpublished',
  'content.deleted',
];

export interface CmsProject {
  projectId: string;
  /** The CMS section's address: `${base}/types`, `${base}/content/:id`. */
  base: string;
  client: PlatformClient;
  /** Viewers read only: the services refuse their writes, so no write control is shown. */
  writes: boolean;
}

export const CmsContext = createContext<CmsProject | undefined>(undefined);

export function useCms(): CmsProject {
  const project = useContext(CmsContext);
  if (!project) throw new Error('a CMS page outside the CMS section');
  return project;
}
