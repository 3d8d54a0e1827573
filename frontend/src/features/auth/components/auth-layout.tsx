import type { ReactNode } from 'react';
import './auth-layout.css';

/** The public shell's card (sign-in now; sign-up and password reset use it too). */
export function AuthLayout({ title, children, footer }: { readonly title: string; readonly children: ReactNode; readonly footer?: ReactNode }) {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <header className="auth-card__brand">
          <svg className="auth-card__logo" viewBox="0 0 32 32" aria-hidden="true">
            <rect width="32" height="32" rx="7" fill="currentColor" />
            <path d="M16 5c-4 6-7 10-7 14a7 7 0 0 0 14 0c0-4-3-8-7-14z" fill="#fff" />
          </svg>
          <div>
            <p className="auth-card__product">Vat-Man</p>
            <p className="auth-card__tagline">Milk vat monitoring</p>
          </div>
        </header>
        <h1 className="auth-card__title">{title}</h1>
        {children}
        {footer && <footer className="auth-card__footer">{footer}</footer>}
      </div>
    </main>
  );
}
