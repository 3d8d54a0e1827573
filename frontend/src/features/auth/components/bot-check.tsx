import { useEffect, useRef, useState } from 'react';
import { loadRecaptcha } from '../api/recaptcha';

/** Ours: the spec has no words for an unticked bot-check (farmer §5 lists none). */
export const MSG_BOT_CHECK = 'Please tick the box to show you are not a robot';
const MSG_BOT_CHECK_UNAVAILABLE = 'The robot check could not be loaded. Check your connection and reload the page.';

interface BotCheckProps {
  readonly siteKey: string;
  /** The widget's answer, or '' when it expires or fails: the caller sends it as gRecaptchaResponse. */
  readonly onChange: (response: string) => void;
}

/**
 * The bot-check of sign-up and password reset (spec §7): reCAPTCHA v2's checkbox. An answer is
 * good for one request, so callers remount it (a new `key`) after each attempt that reached the
 * server. Each mount renders into a fresh element, which keeps StrictMode's second effect run
 * from rendering twice into one.
 */
export function BotCheck({ siteKey, onChange }: BotCheckProps) {
  const holder = useRef<HTMLDivElement>(null);
  const latest = useRef(onChange);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    latest.current = onChange;
  }, [onChange]);

  useEffect(() => {
    const host = holder.current;
    if (!host) return;
    let live = true;
    const target = document.createElement('div');
    host.appendChild(target);
    loadRecaptcha().then(
      (grecaptcha) => {
        if (!live) return;
        grecaptcha.render(target, {
          sitekey: siteKey,
          callback: (response) => latest.current(response),
          'expired-callback': () => latest.current(''),
          'error-callback': () => latest.current(''),
        });
      },
      () => {
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
      target.remove();
      latest.current('');
    };
  }, [siteKey]);

  return (
    <div className="form__field">
      <div ref={holder} className="bot-check" data-testid="bot-check" />
      {failed && (
        <p className="form__error" role="alert">
          {MSG_BOT_CHECK_UNAVAILABLE}
        </p>
      )}
    </div>
  );
}
