import { useEffect, useState } from 'react';

/** Phones and narrow windows: the same break as the card grid (one column under 720 px). */
const NARROW_QUERY = '(max-width: 719px)';

const matches = (): boolean => (typeof window.matchMedia === 'function' ? window.matchMedia(NARROW_QUERY).matches : false);

/** Whether the screen is narrow now, following changes (a phone turned, a window resized). */
export const useNarrow = (): boolean => {
  const [narrow, setNarrow] = useState(matches);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return undefined;
    const query = window.matchMedia(NARROW_QUERY);
    const onChange = () => setNarrow(query.matches);
    query.addEventListener('change', onChange);
    onChange();
    return () => query.removeEventListener('change', onChange);
  }, []);
  return narrow;
};
