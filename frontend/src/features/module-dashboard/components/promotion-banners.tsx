import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { Farm } from '@shared/entities/farm';
import { paths } from '../../../config/paths';
import { hasSeen, markSeen, type Promotion } from '../utils/seen-flags';

interface Banner {
  readonly id: Promotion;
  readonly title: string;
  readonly text: string;
  readonly link: { readonly label: string; readonly to: string };
}

/** Vat-Man Auto's own farms already have the controller: its banner is for the others. */
const bannersFor = (pkg: Farm['package'] | undefined): readonly Banner[] => [
  {
    id: 'compliance',
    title: 'Your cooling compliance record',
    text: "Every milking checked against the raw milk cooling rules (10°C within four hours, 6°C within six), ready to download as CSV or PDF for your dairy company's assessor.",
    link: { label: 'Open the compliance record', to: paths.compliance.to() },
  },
  ...(pkg === 'Vat-Man Auto'
    ? []
    : [
        {
          id: 'auto' as const,
          title: 'Vat-Man Auto runs your vat for you',
          text: 'The Auto controller switches the chilling and the agitator to your settings and alerts you when the vat is left off or in manual override.',
          link: { label: 'Ask about Vat-Man Auto', to: paths.survey.to() },
        },
      ]),
];

/**
 * The two promotion banners (farmer §3 Cookies: a seen-flag cookie for each). A banner shows until
 * the farmer closes it or follows its link; either sets its seen flag, so it never shows again.
 */
export function PromotionBanners({ farmPackage }: { readonly farmPackage: Farm['package'] | undefined }) {
  const [seen, setSeen] = useState(() => new Set(bannersFor(farmPackage).filter((b) => hasSeen(b.id)).map((b) => b.id)));
  const shown = bannersFor(farmPackage).filter((b) => !seen.has(b.id));
  // Browsers cap a cookie's life (Chromium at 400 days) below the spec's 100 years: each visit
  // writes the seen flags again, so a closed banner stays closed for as long as the farmer comes back.
  useEffect(() => {
    for (const id of seen) markSeen(id);
  }, [seen]);
  if (shown.length === 0) return null;
  const dismiss = (id: Promotion) => {
    markSeen(id);
    setSeen((prev) => new Set([...prev, id]));
  };
  return (
    <div className="promotions">
      {shown.map((b) => (
        <aside key={b.id} className="promotion" aria-label={b.title}>
          <div className="promotion__body">
            <p className="promotion__title">{b.title}</p>
            <p className="promotion__text">{b.text}</p>
            <Link className="promotion__link" to={b.link.to} onClick={() => markSeen(b.id)}>
              {b.link.label}
            </Link>
          </div>
          <button type="button" className="button button--text" aria-label={`Close: ${b.title}`} onClick={() => dismiss(b.id)}>
            Close
          </button>
        </aside>
      ))}
    </div>
  );
}
