import { FARM_PAGE_SIZE } from '@shared/api/actions/admin-farm';
import { saveFile } from '../../../lib/save-file';

export const farmPageCount = (total: number): number => Math.max(1, Math.ceil(total / FARM_PAGE_SIZE));

/** Page `page` (1-based) of the cards, clamped to the pages there are (operator §9: 30 a page). */
export const farmPageOf = <T,>(items: readonly T[], page: number): T[] => {
  const p = Math.min(Math.max(1, page), farmPageCount(items.length));
  return items.slice((p - 1) * FARM_PAGE_SIZE, p * FARM_PAGE_SIZE);
};

/** The month before `now`'s, YYYY-MM: what a billing run usually asks for. */
export const lastMonth = (now: Date): string => {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return d.toISOString().slice(0, 7);
};

/** Saves text as a file through a temporary link (the billing CSV): lib/save-file.ts. */
export const saveText = (text: string, filename: string, type = 'text/csv;charset=utf-8'): void => saveFile(text, filename, type);
