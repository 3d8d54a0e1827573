import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { SEARCH_MIN, type SearchHit } from '@shared/api/actions/operator-fleet';
import { useApiClient } from '../../../lib/api-client-provider';
import { useDismiss } from '../../../lib/use-dismiss';
import { hitPath, operatorSearchQuery, searchMore } from '../api/operator-search';

const KIND_LABEL: Record<SearchHit['kind'], string> = { farm: 'Farm', device: 'Device', user: 'User' };
/** Typing settles this long before a lookup goes out. */
const SETTLE_MS = 250;

type Option = { readonly kind: 'hit'; readonly hit: SearchHit } | { readonly kind: 'more'; readonly of: SearchHit['kind']; readonly after: string };

/**
 * The operators' search in the top bar (Admin, Installer): a supply number, IMEI, device name,
 * farm name or email. A combobox: arrows move through the matches, Enter opens one (the only match
 * or the first when none is chosen), Escape closes; 'More …' rows fetch the next page of a kind.
 */
export function OperatorSearch({ role }: { readonly role: string }) {
  const client = useApiClient();
  const navigate = useNavigate();
  const listId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [settled, setSettled] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [extra, setExtra] = useState<{ q: string; hits: SearchHit[]; next: Partial<Record<SearchHit['kind'], string>> }>({ q: '', hits: [], next: {} });

  useEffect(() => {
    const timer = setTimeout(() => setSettled(text.trim()), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const q = useDeferredValue(settled);
  const query = useQuery(operatorSearchQuery(client, q));
  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  useDismiss(rootRef, open, close, () => inputRef.current?.focus());

  const base = query.data;
  const more = extra.q === q ? extra : { q, hits: [], next: {} };
  const hits = [...(base?.hits ?? []), ...more.hits];
  const next = { ...(base?.next ?? {}), ...(extra.q === q ? more.next : {}) };
  const options: Option[] = [
    ...hits.map((hit): Option => ({ kind: 'hit', hit })),
    ...(Object.entries(next) as [SearchHit['kind'], string | undefined][]).flatMap(([of, after]): Option[] => (after ? [{ kind: 'more', of, after }] : [])),
  ];
  const showList = open && q.length >= SEARCH_MIN && q === text.trim();

  const choose = async (option: Option | undefined) => {
    if (!option) return;
    if (option.kind === 'hit') {
      close();
      setText('');
      navigate(hitPath(option.hit, role));
      return;
    }
    const page = await searchMore(client, q, option.of, option.after);
    setExtra((prev) => {
      const same = prev.q === q ? prev : { q, hits: [], next: {} };
      return { q, hits: [...same.hits, ...page.hits], next: { ...same.next, [option.of]: page.next[option.of] } };
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (options.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + options.length) % options.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      // Matches of an older text are never opened: the lookup of this one goes out now instead.
      if (text.trim() !== q) {
        setSettled(text.trim());
        setOpen(true);
        return;
      }
      void choose(options[active >= 0 ? active : 0]);
    } else if (event.key === 'Escape') {
      close();
    }
  };

  const optionId = (i: number) => `${listId}-option-${i}`;
  return (
    <div className="operator-search" ref={rootRef} role="search">
      <input
        ref={inputRef}
        type="search"
        className="operator-search__input"
        role="combobox"
        aria-label="Search farms, devices and users"
        placeholder="Supply number, IMEI, device, farm, email"
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showList && active >= 0 ? optionId(active) : undefined}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={onKeyDown}
      />
      <div className="operator-search__popup" hidden={!showList}>
        <ul id={listId} role="listbox" aria-label="Matches" className="operator-search__list">
          {options.map((option, i) => (
            <li
              key={option.kind === 'hit' ? `${option.hit.kind}:${option.hit._id}` : `more:${option.of}`}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              className={`operator-search__option${i === active ? ' operator-search__option--active' : ''}`}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => void choose(option)}
            >
              {option.kind === 'hit' ? (
                <>
                  <span className="operator-search__kind">{KIND_LABEL[option.hit.kind]}</span>
                  <span className="operator-search__label">{option.hit.label}</span>
                  <span className="operator-search__detail">{option.hit.detail}</span>
                </>
              ) : (
                <span className="operator-search__label">More {KIND_LABEL[option.of].toLowerCase()}s…</span>
              )}
            </li>
          ))}
        </ul>
        <p className="operator-search__status" role="status">
          {query.isFetching ? 'Searching…' : query.isError ? 'The search failed. Try again.' : options.length === 0 ? 'No farm, device or user matches.' : ''}
        </p>
      </div>
    </div>
  );
}
