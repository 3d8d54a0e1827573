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
export const UsersComingSoon = () => (
  <ComingSoon title="Users" what="the admins, installers and users, with their roles and the herdsman setting." />
);
