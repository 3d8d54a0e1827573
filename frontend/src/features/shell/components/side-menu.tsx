import { Link, useLocation } from 'react-router-dom';
import { isCurrent, type MenuItem } from '../utils/menu';

export const SIDE_MENU_ID = 'shell-side-menu';

/** Consecutive items of the same group, in menu order. */
const grouped = (items: readonly MenuItem[]): { group: string | undefined; items: MenuItem[] }[] =>
  items.reduce<{ group: string | undefined; items: MenuItem[] }[]>((runs, item) => {
    const last = runs[runs.length - 1];
    if (last && last.group === item.group) last.items.push(item);
    else runs.push({ group: item.group, items: [item] });
    return runs;
  }, []);

function MenuLink({ item, current, onNavigate }: { readonly item: MenuItem; readonly current: boolean; readonly onNavigate: () => void }) {
  if (item.external) {
    return (
      <a className="side-menu__link" href={item.to} target="_blank" rel="noopener noreferrer" onClick={onNavigate}>
        {item.label}
      </a>
    );
  }
  return (
    <Link className={`side-menu__link${current ? ' active' : ''}`} to={item.to} aria-current={current ? 'page' : undefined} onClick={onNavigate}>
      {item.label}
    </Link>
  );
}

/**
 * The left menu (farmer §2.2; operators' groups under headings): a column on wide screens, a
 * drawer on phones. The current page's item is marked, also on the pages it covers (a farm tab's
 * page under Milk, a device's page under Devices).
 */
export function SideMenu({ items, onNavigate }: { readonly items: readonly MenuItem[]; readonly onNavigate: () => void }) {
  const { pathname } = useLocation();
  return (
    <nav id={SIDE_MENU_ID} className="side-menu" aria-label="Main menu">
      <ul className="side-menu__list">
        {grouped(items).map((run) =>
          run.group === undefined ? (
            run.items.map((item) => (
              <li key={item.label}>
                <MenuLink item={item} current={isCurrent(item, pathname)} onNavigate={onNavigate} />
              </li>
            ))
          ) : (
            <li key={run.group} className="side-menu__group">
              <span className="side-menu__heading" id={`side-menu-${run.group.replace(/\W+/g, '-').toLowerCase()}`}>
                {run.group}
              </span>
              <ul className="side-menu__sublist" aria-labelledby={`side-menu-${run.group.replace(/\W+/g, '-').toLowerCase()}`}>
                {run.items.map((item) => (
                  <li key={item.label}>
                    <MenuLink item={item} current={isCurrent(item, pathname)} onNavigate={onNavigate} />
                  </li>
                ))}
              </ul>
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}
