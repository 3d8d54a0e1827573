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

// The person's own pages and the operator pages of the main shell (farmer §2.2, operator §2):
// the user menu and the left menu link here; their issues fill them.
export const ProfileComingSoon = () => (
  <ComingSoon title="Profile" what="your name, email and phone with their verification, the subscription setting, and password change." />
);
export const WestlandsDataComingSoon = () => (
  <ComingSoon title="Westlands Data" what="Westlands farms' vat data by farm and vat, with its chart and download." />
);
