/**
 * The milk pages before their screens exist (later issues): the heading and an honest line,
 * nothing that looks like data. Each is replaced by its real screen in src/app/routes.tsx.
 */
function ComingSoon({ title, what }: { readonly title: string; readonly what: string }) {
  return (
    <section className="page">
      <h1 className="page__title">{title}</h1>
      <p className="page__note">Coming soon: {what}</p>
    </section>
  );
}

export const MilkDashboardComingSoon = () => (
  <ComingSoon title="Vatman" what="a card per vat with volume, temperature, agitator, last collection, milking and CIP, and the milk storage history." />
);
export const MilkingComingSoon = () => <ComingSoon title="Milking" what="milking volume and temperature charts per vat, and each milking's detail." />;
export const EquipmentComingSoon = () => <ComingSoon title="Equipment" what="the diagram of your farm's cooling equipment and its builder." />;
export const NotificationsComingSoon = () => <ComingSoon title="Alerts" what="your farm's alerts and the archive, grouped by vat." />;
export const AlertSettingsComingSoon = () => <ComingSoon title="Settings" what="alert thresholds and, for Vat-Man Auto, the controller settings." />;
