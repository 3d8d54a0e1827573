import { normaliseSupplyNumber, type MilkView } from '@shared/api/actions/milk-quality';
import { MAX_RANGE_DAYS } from '@shared/constants';
import { daysFrom } from '@shared/time/local-day';
import type { MilkLookup } from '../api/milk-data';

/** The form's four fields as typed. */
export interface MilkFormValues {
  readonly supplyNumber: string;
  readonly vatNumber: string;
  readonly fromDate: string;
  readonly toDate: string;
}
export type MilkField = keyof MilkFormValues;

/** operator §8: an empty required input after a failed submit. */
export const REQUIRED_FIELD = 'Required Field';

type MilkFormResult =
  | { readonly ok: true; readonly lookup: MilkLookup }
  | { readonly ok: false; readonly missing: readonly MilkField[]; readonly message?: string };

/**
 * operator §5: all four fields are required; if any is empty, those are marked and nothing is
 * requested. The supply number is upper-cased and trimmed with the view's prefix rule (FON for 5
 * characters; Westlands: WES for 3). Dates come from date inputs as YYYY-MM-DD.
 */
export const checkMilkForm = (values: MilkFormValues, view: MilkView): MilkFormResult => {
  const missing = (Object.keys(values) as MilkField[]).filter((k) => values[k].trim() === '');
  if (missing.length > 0) return { ok: false, missing };
  const fromDate = values.fromDate.trim();
  const toDate = values.toDate.trim();
  // The range rules the server applies (shared/api/range.ts), said in the form's words; a day after
  // the farm's today is the server's to judge ('No more data!'): only it knows the farm's zone.
  if (toDate < fromDate) return { ok: false, missing: [], message: 'To must not be before From.' };
  if (daysFrom(fromDate, toDate) > MAX_RANGE_DAYS) return { ok: false, missing: [], message: `The range may be at most ${MAX_RANGE_DAYS} days.` };
  return {
    ok: true,
    lookup: {
      supplyNumber: normaliseSupplyNumber(values.supplyNumber, view),
      vatNumber: Number(values.vatNumber.trim()),
      fromDate,
      toDate,
    },
  };
};
