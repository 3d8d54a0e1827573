/**
 * One cell. Text that a spreadsheet would read as a formula (it starts with =, +, -, @, a tab or
 * a carriage return) gets a leading apostrophe, so a device's state text can never run as a
 * formula (OWASP CSV injection); numbers are written as they are.
 */
export const csvCell = (v: string | number | null | undefined): string => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};
