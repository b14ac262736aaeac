/** What the console server tells the page about this installation (addresses, dev inbox). */
import { useQuery } from '@tanstack/preact-query';
import type { ServiceName } from '@platform/client';

export interface SiteInfo {
  devInbox: boolean;
  serviceUrls: Record<Exclude<ServiceName, 'console'>, string>;
}

export function useSite() {
  return useQuery({
    queryKey: ['site'],
    queryFn: async () => (await (await fetch('/api/site')).json()) as SiteInfo,
    staleTime: Infinity,
  });
}
