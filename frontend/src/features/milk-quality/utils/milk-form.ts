import { normaliseSupplyNumber, type MilkView } from '@shared/api/actions/milk-quality';
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

export type MilkFormResult = { readonly ok: true; readonly lookup: MilkLookup } | { readonly ok: false; readonly missing: readonly MilkField[] };

/**
 * operator §5: all four fields are required; if any is empty, those are marked and nothing is
 * requested. The supply number is upper-cased and trimmed with the view's prefix rule (FON for 5
 * characters; Westlands: WES for 3). Dates come from date inputs as YYYY-MM-DD.
 */
export const checkMilkForm = (values: MilkFormValues, view: MilkView): MilkFormResult => {
  const missing = (Object.keys(values) as MilkField[]).filter((k) => values[k].trim() === '');
  if (missing.length > 0) return { ok: false, missing };
  return {
    ok: true,
    lookup: {
      supplyNumber: normaliseSupplyNumber(values.supplyNumber, view),
      vatNumber: Number(values.vatNumber.trim()),
      fromDate: values.fromDate.trim(),
      toDate: values.toDate.trim(),
    },
  };
};
