/**
 * Form text ↔ numbers. The clamps and checks themselves are shared/alerts/settings.ts (one
 * implementation with the server); this only decides whether a field's text is a number the
 * clamp may act on. Anything else is left as typed, for the save check to refuse with its message.
 */
const NUMBER = /^-?\d+(\.\d+)?$/;

export const parseNumber = (text: string): number | undefined => (NUMBER.test(text.trim()) ? Number(text.trim()) : undefined);

export type FormValues<F extends string> = Record<F, string>;

export const toFormValues = <F extends string>(fields: readonly F[], values: Readonly<Record<F, number>>): FormValues<F> =>
  Object.fromEntries(fields.map((f) => [f, String(values[f])])) as FormValues<F>;

/** Only the fields the form shows: the server keeps the others as stored. */
export const pick = <F extends string, V>(fields: readonly F[], values: Readonly<Record<F, V>>): Partial<Record<F, V>> =>
  Object.fromEntries(fields.map((f) => [f, values[f]])) as Partial<Record<F, V>>;

/**
 * The clamp of farmer §5 applied to `fields` in turn (each field sees the ones clamped before it,
 * as the basepad and sidewall limits need); text that is not a number is left for the save check.
 * The blur clamps one field; a save (Enter included, which blurs nothing) clamps them all first.
 */
export const clampFields = <F extends string>(values: FormValues<F>, fields: readonly F[], clamp: (field: F, n: number, now: FormValues<F>) => number): FormValues<F> =>
  fields.reduce<FormValues<F>>((now, f) => {
    const n = parseNumber(now[f]);
    return n === undefined ? now : { ...now, [f]: String(clamp(f, n, now)) };
  }, values);
