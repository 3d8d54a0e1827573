import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * A text box's state that a link can set: it starts from the URL's `name` parameter and follows it
 * when a link changes it on the same page (the operator search opening another match); typing
 * changes the box only, not the URL.
 */
export const useUrlText = (name: string): [string, (text: string) => void] => {
  const [params] = useSearchParams();
  const linked = params.get(name);
  const [text, setText] = useState(linked ?? '');
  useEffect(() => {
    if (linked !== null) setText(linked);
  }, [linked]);
  return [text, setText];
};
