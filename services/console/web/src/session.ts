/** Who is signed in, from the control plane's /me (the tokens stay in the httpOnly cookie). */
import { useQuery } from '@tanstack/preact-query';
import { CallFailed, controlPlane, unwrap } from './api';

export function useMe() {
  return useQuery({
    queryKey: ['me'],
    queryFn: async () => {
      try {
        return await unwrap(controlPlane.getMe());
      } catch (error) {
        if (error instanceof CallFailed && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 30_000,
  });
}
