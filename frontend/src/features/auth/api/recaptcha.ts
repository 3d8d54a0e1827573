/**
 * Google reCAPTCHA v2 (the checkbox), loaded on demand. Only the register and reset pages need
 * it, and only where the runtime config carries a site key. The widget API is three calls, so
 * this small loader stands in for a wrapper library (the React ones are class components that
 * trip over StrictMode's double effects); see bot-check.tsx.
 */
export interface Grecaptcha {
  render(
    container: HTMLElement,
    parameters: {
      readonly sitekey: string;
      readonly callback: (response: string) => void;
      readonly 'expired-callback': () => void;
      readonly 'error-callback': () => void;
    },
  ): number;
  reset(widgetId?: number): void;
}

declare global {
  interface Window {
    grecaptcha?: Partial<Grecaptcha>;
    vatmanRecaptchaLoaded?: () => void;
  }
}

export const RECAPTCHA_SCRIPT = 'https://www.google.com/recaptcha/api.js?onload=vatmanRecaptchaLoaded&render=explicit';

const ready = (): Grecaptcha | undefined => {
  const g = window.grecaptcha;
  return typeof g?.render === 'function' && typeof g.reset === 'function' ? (g as Grecaptcha) : undefined;
};

let loading: Promise<Grecaptcha> | undefined;

/** Resolves with the loaded API; the script is added once per page. A failed load may be retried. */
export const loadRecaptcha = (): Promise<Grecaptcha> => {
  const loaded = ready();
  if (loaded) return Promise.resolve(loaded);
  loading ??= new Promise<Grecaptcha>((resolve, reject) => {
    window.vatmanRecaptchaLoaded = () => {
      const api = ready();
      if (api) resolve(api);
      else reject(new Error('reCAPTCHA loaded without its API'));
    };
    const script = document.createElement('script');
    script.src = RECAPTCHA_SCRIPT;
    script.async = true;
    script.defer = true;
    script.onerror = () => {
      script.remove();
      loading = undefined;
      reject(new Error('The bot-check could not be loaded'));
    };
    document.head.appendChild(script);
  });
  return loading;
};
