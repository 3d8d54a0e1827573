import { describe, expect, it } from 'vitest';
import { smsTotalFor } from '../constants';
import { ADDABLE_TAGS, NON_INDEPENDENT, ORGANIZATION_PACKAGES, ORGANIZATION_TAGS, organizationSchema } from './organization';

describe('organization constants (farmer §3, §9)', () => {
  it('lists the four packages, Non-independent accounting first, and charges each the §9 SMS total', () => {
    expect(ORGANIZATION_PACKAGES).toEqual(['Non-independent accounting', 'Vat-Man Lite', 'Vat-Man Pro', 'Vat-Man Auto']);
    expect(ORGANIZATION_PACKAGES.map((p) => smsTotalFor(p))).toEqual([60, 60, 120, 120]);
  });

  it('has the four tags, and a new organization may take all but Farm', () => {
    expect(ORGANIZATION_TAGS).toEqual(['Group', 'Regional', 'Branch', 'Farm']);
    expect(ADDABLE_TAGS).toEqual(['Group', 'Regional', 'Branch']);
  });

  it('reads a stored organization without a tag as Farm and without a package as Non-independent accounting', () => {
    const parsed = organizationSchema.parse({ _id: 'o1', name: 'Old' });
    expect(parsed).toMatchObject({ tag: 'Farm', package: NON_INDEPENDENT, parent_id: null, contact: '' });
  });
});
