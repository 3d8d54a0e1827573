import { useQuery } from '@tanstack/react-query';
import { webConfigQuery } from './web-config';

/**
 * The runtime config for screens (support link, herd site URL). The app has already loaded it
 * at start, so this read never fails in practice; if it does, callers fall back (no herd link,
 * support link to '/') rather than break.
 */
export const useWebConfig = () =>
  useQuery(webConfigQuery).data;
