/**
 * The partner areas' screens until their issues land: the shell shows the title in its sub-bar,
 * these say plainly what is missing. No sample data.
 */
export function PartnerProfileComingSoon() {
  return <p className="partner-content__note">Coming soon: your profile, email and phone verification, and password change.</p>;
}
