/**
 * The partner areas' screens until their issues land: the shell shows the title in its sub-bar,
 * these say plainly what is missing. No sample data.
 */
export function MilkQualityComingSoon() {
  return <p className="partner-content__note">Coming soon: milk quality data by supply number and vat, with its chart and download.</p>;
}

export function WestlandsDataComingSoon() {
  return <p className="partner-content__note">Coming soon: Westlands data by farm and vat, with its chart and download.</p>;
}
