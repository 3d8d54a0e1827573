import { useCallback, useState } from 'react';
import { useWebConfig } from '../../../lib/use-web-config';
import { BotCheck, MSG_BOT_CHECK } from '../components/bot-check';

/**
 * The bot-check of a form (spec §7): the widget to render (none without a site key, as locally),
 * the answer to send as gRecaptchaResponse, the form check that asks for a tick, and `renew`
 * for after an attempt reached the server (an answer is good for one request).
 */
export function useBotCheck() {
  const siteKey = useWebConfig()?.recaptchaSiteKey;
  const [response, setResponse] = useState('');
  const [round, setRound] = useState(0);

  const check = useCallback(() => (siteKey && !response ? MSG_BOT_CHECK : undefined), [siteKey, response]);
  const renew = useCallback(() => {
    if (!siteKey) return;
    setResponse('');
    setRound((n) => n + 1);
  }, [siteKey]);

  const widget = siteKey ? <BotCheck key={round} siteKey={siteKey} onChange={setResponse} /> : null;
  return { widget, response, check, renew } as const;
}
