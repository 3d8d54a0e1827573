import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { Farm } from '@shared/entities/farm';
import { farmLabel } from '../utils/selected-farm';
import { Icon } from './icons';

/** Farms whose label (farm code, or name for demo accounts) contains the search, ignoring case. */
const searchFarms = (farms: readonly Farm[], search: string, isDemo: boolean | undefined): Farm[] => {
  const needle = search.trim().toLowerCase();
  return needle === '' ? [...farms] : farms.filter((farm) => farmLabel(farm, isDemo).toLowerCase().includes(needle));
};

interface FarmSelectorProps {
  readonly farms: readonly Farm[];
  readonly selected: Farm;
  readonly isDemo: boolean | undefined;
  readonly onSelect: (farmId: string) => void;
}

/** The farm selector with search (farmer §2.2): a button that opens a searchable list box. */
export function FarmSelector({ farms, selected, isDemo, onSelect }: FarmSelectorProps) {
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [active, setActive] = useState(0);
  const ids = { list: useId(), option: useId() };
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const matches = searchFarms(farms, search, isDemo);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const openList = () => {
    setSearch('');
    setActive(Math.max(0, farms.findIndex((farm) => farm._id === selected._id)));
    setOpen(true);
  };

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  const choose = (farm: Farm) => {
    close();
    if (farm._id !== selected._id) onSelect(farm._id);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        setActive((index) => Math.min(index + 1, matches.length - 1));
        break;
      case 'ArrowUp':
        event.preventDefault();
        setActive((index) => Math.max(index - 1, 0));
        break;
      case 'Enter': {
        event.preventDefault();
        const farm = matches[active];
        if (farm) choose(farm);
        break;
      }
      case 'Escape':
        event.preventDefault();
        close();
        break;
    }
  };

  return (
    <div className="farm-select" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="farm-select__button"
        aria-haspopup="listbox"
        aria-expanded={open}
        onClick={() => (open ? setOpen(false) : openList())}
      >
        <span className="farm-select__caption">Farm</span> <strong>{farmLabel(selected, isDemo)}</strong>
        <Icon name="caret" />
      </button>
      {open && (
        <div className="farm-select__panel">
          <input
            className="farm-select__search"
            type="search"
            role="combobox"
            aria-label="Search farms"
            aria-expanded="true"
            aria-controls={ids.list}
            aria-autocomplete="list"
            aria-activedescendant={matches[active] ? `${ids.option}-${active}` : undefined}
            placeholder="Search farms"
            autoComplete="off"
            // The list opens to be searched: the search box takes the focus at once.
            autoFocus
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setActive(0);
            }}
            onKeyDown={onKeyDown}
          />
          <ul id={ids.list} className="farm-select__list" role="listbox" aria-label="Farms">
            {matches.map((farm, index) => (
              <li
                key={farm._id}
                id={`${ids.option}-${index}`}
                role="option"
                aria-selected={farm._id === selected._id}
                className={`farm-select__option${index === active ? ' farm-select__option--active' : ''}`}
                onClick={() => choose(farm)}
                onPointerMove={() => setActive(index)}
              >
                {farmLabel(farm, isDemo)}
              </li>
            ))}
          </ul>
          {matches.length === 0 && <p className="farm-select__empty">No farm matches “{search.trim()}”.</p>}
        </div>
      )}
    </div>
  );
}
