import { useQuery } from '@tanstack/react-query';
import { loadWebConfig } from '../../../lib/web-config';

/**
 * The runtime config (for the herd site URL). The app has already loaded it at start, so this
 * read never fails in practice; if it does, the herd link stays hidden rather than breaking.
 */
export const useWebConfig = () =>
  useQuery({ queryKey: ['web-config'], queryFn: () => loadWebConfig(), staleTime: Infinity, gcTime: Infinity, retry: false }).data;
