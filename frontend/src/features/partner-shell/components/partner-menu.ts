import { paths } from '../../../config/paths';

/** The two partner areas (operator §2 Partner shells): one shell, two menus. */
export type PartnerArea = 'milk-quality' | 'westlands';

type MenuEntry = { readonly kind: 'link'; readonly label: string; readonly to: string } | { readonly kind: 'divider' };

/** Roles that see each area's menu (operator §6); any other role gets an empty menu. */
const MENU_ROLES: Record<PartnerArea, readonly string[]> = {
  'milk-quality': ['Milk Quality', 'Admin'],
  westlands: ['Westlands', 'Admin'],
};

/** The side-bar menu of an area for a role; `partner` is the dairy company segment of the Milk Quality area. */
export const partnerMenu = (area: PartnerArea, role: string, partner: string): readonly MenuEntry[] => {
  if (!MENU_ROLES[area].includes(role)) return [];
  return area === 'milk-quality'
    ? [{ kind: 'link', label: 'Milk Quality', to: paths.partnerMilkQuality.to(partner) }, { kind: 'divider' }]
    : [{ kind: 'link', label: 'Westlands Data', to: paths.westlandsArea.to() }];
};

/** The profile page inside the area's own shell. */
export const partnerProfilePath = (area: PartnerArea, partner: string): string =>
  area === 'milk-quality' ? paths.partnerProfile.to(partner) : paths.westlandsProfile.to();
