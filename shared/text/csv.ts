/**
 * One cell of every CSV the product writes (the billing file, the compliance record, the milk
 * data). Text that a spreadsheet would read as a formula (it starts with =, +, -, @, a tab or a
 * carriage return: spreadsheets skip those two and read the formula after them) gets a leading
 * apostrophe, so a farm name or a device's state text can never run as a formula (OWASP CSV
 * injection); numbers are written as they are.
 */
export const csvCell = (v: string | number | null | undefined): string => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};
