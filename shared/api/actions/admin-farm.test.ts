import { describe, expect, it } from 'vitest';
import type { Farm } from '../../entities/farm';
import { billingCsv, csvLine, matchesDairyFilter, parseMilkingWindowCsv } from './admin-farm';

const HEADER = 'supply_number,buffer_duration,end_of_milking';

describe('milking-window CSV', () => {
  it('reads rows, upper-casing supply numbers, padding hours, skipping blank lines, with or without a BOM and CRLF', () => {
    expect(parseMilkingWindowCsv(`\uFEFF${HEADER}\r\nfon123, 30 ,7:05\r\n\r\n"31245",0,23:59\r\n`)).toEqual({
      rows: [
        { row: 2, supply_number: 'FON123', buffer_duration: 30, end_of_milking: '07:05' },
        { row: 4, supply_number: '31245', buffer_duration: 0, end_of_milking: '23:59' },
      ],
      errors: [],
    });
  });

  it('names every bad row and what is wrong with it', () => {
    const { errors } = parseMilkingWindowCsv(`${HEADER}\n31245,721,08:00\n,-1,24:00\nA,1\nfon1,1,01:00\nFON1,2,02:00\n`);
    expect(errors).toEqual([
      'Row 2: buffer_duration must be whole minutes from 0 to 720',
      'Row 3: supply_number is missing; buffer_duration must be whole minutes from 0 to 720; end_of_milking must be a time of day as HH:mm (24-hour)',
      'Row 4: 3 values expected, found 2',
      'Row 6: supply number FON1 is also on row 5',
    ]);
  });

  it('refuses a wrong header and a file without rows, and lists at most 50 problems', () => {
    expect(parseMilkingWindowCsv('a,b,c\n1,2,03:00').errors).toEqual([`The first line must be: ${HEADER}`]);
    expect(parseMilkingWindowCsv(`${HEADER}\n`).errors).toEqual(['The file has no rows.']);
    const many = parseMilkingWindowCsv(`${HEADER}\n${'x,y,z\n'.repeat(60)}`).errors;
    expect(many).toHaveLength(51);
    expect(many[50]).toBe('and 10 more rows with problems');
  });
});

describe('dairy filter (operator §9)', () => {
  const farm = (fonterra_id: string, supplier?: Farm['supplier']) => ({ fonterra_id, supplier });
  it('FON is 5 digits, FON… or stored as FON; NONE-FON the rest; a code the non-FON farms with it', () => {
    expect(matchesDairyFilter(farm('31245'), 'FON')).toBe(true);
    expect(matchesDairyFilter(farm('FON50412'), 'FON')).toBe(true);
    expect(matchesDairyFilter(farm('77', 'FON'), 'FON')).toBe(true);
    expect(matchesDairyFilter(farm('OCD40721'), 'NONE-FON')).toBe(true);
    expect(matchesDairyFilter(farm('OCD40721'), 'OCD')).toBe(true);
    expect(matchesDairyFilter(farm('4411', 'SYN'), 'SYN')).toBe(true);
    expect(matchesDairyFilter(farm('4411', 'SYN'), 'OCD')).toBe(false);
    expect(matchesDairyFilter(farm('31245'), 'ALL')).toBe(true);
  });
});

describe('billing CSV', () => {
  it('quotes commas and defuses formulas', () => {
    expect(csvLine(['a,b', '=SUM(A1)', 'say "hi"', 3])).toBe(`"a,b",'=SUM(A1),"say ""hi""",3`);
  });

  it('defuses a formula behind a leading tab or carriage return, which spreadsheets skip', () => {
    expect(csvLine(['\t=HYPERLINK("https://evil.example")', '\r=1+1', '-2', 7])).toBe(`"'\t=HYPERLINK(""https://evil.example"")","'\r=1+1",'-2,7`);
  });

  it('leaves out farms installed after the month', () => {
    const f = (id: string, install_date: string) => ({ farm: { _id: id, fonterra_id: id, package: 'Vat-Man Lite', install_date } as Farm, smsSent: 0, smsTotal: 60 });
    const csv = billingCsv('2026-05', [f('B', '2026-06-01'), f('A', '2026-05-31')]);
    expect(csv.trim().split('\r\n').slice(1)).toEqual(['2026-05,A,,OTH,Vat-Man Lite,DTSVMLITE,1,0,60', '2026-05,A,,OTH,Vat-Man Lite,DTSVMLITEINST,1,,']);
  });
});
