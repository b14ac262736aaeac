/** What the Mailer pages share: the project's client and role, a debounced value. */
import type { mailer } from '@platform/client';
import { useQuery } from '@tanstack/preact-query';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { controlPlane, projectClient, unwrap } from '../../api';
import { may } from '../../roles';

export type MailerSchemas = mailer.components['schemas'];
export type Client = ReturnType<typeof projectClient>;

/** Where a Mailer page is, its client, and whether the member may write (the service refuses a viewer's writes). */
export interface MailerContext {
  orgId: string;
  projectId: string;
  client: Client;
  canWrite: boolean;
}

export function useMailerContext(orgId: string, projectId: string): MailerContext & { orgName?: string } {
  const client = useMemo(() => projectClient(orgId, projectId), [orgId, projectId]);
  const org = useQuery({
    queryKey: ['organisation', orgId],
    queryFn: () => unwrap(controlPlane.getOrganisation({ params: { path: { orgId } } })),
  });
  return { orgId, projectId, client, canWrite: may(org.data?.role).writeSettings, orgName: org.data?.name };
}

/** The value once it has stayed the same for `ms` (so typing does not call the service on every key). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
