import { useQuery } from '@tanstack/react-query';
import { loadWebConfig } from '../../../lib/web-config';

/**
 * The runtime config (for the support link). The app has already loaded it at start, so this
 * read never fails in practice; if it does, the page falls back rather than breaking.
 */
export const useWebConfig = () =>
  useQuery({ queryKey: ['web-config'], queryFn: () => loadWebConfig(), staleTime: Infinity, gcTime: Infinity, retry: false }).data;
