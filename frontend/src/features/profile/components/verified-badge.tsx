import type { User } from '@shared/entities/user';

/**
 * The verified/unverified icon beside the email and the phone (farmer §2.10, §2.16). Unverified,
 * it is a button that opens the attribute's verification dialog.
 */
export function VerifiedBadge({ flag, what, onVerify }: { readonly flag: User['email_verify']; readonly what: 'Email' | 'Phone'; readonly onVerify: () => void }) {
  if (flag === 2) {
    return (
      <span className="verified-badge verified-badge--yes" role="img" aria-label={`${what} verified`} title={`${what} verified`}>
        ✓
      </span>
    );
  }
  return (
    <button type="button" className="verified-badge verified-badge--no" aria-label={`${what} not verified: verify it`} title={`${what} not verified: verify it`} onClick={onVerify}>
      !
    </button>
  );
}
