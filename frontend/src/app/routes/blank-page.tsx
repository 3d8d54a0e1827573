/**
 * /dts/blank (farmer §2.3; operator §2 'an empty container page'): the signed-in shell around an
 * empty container. It holds nothing by design, so it claims nothing either.
 */
export function BlankPage() {
  return <section className="page blank-page" aria-label="Blank page" />;
}
