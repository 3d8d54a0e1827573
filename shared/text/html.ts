/**
 * Text made safe to place in HTML, as element content or a quoted attribute value: the five
 * characters HTML gives a meaning to become character references, everything else stays.
 * Names and addresses reach Cognito's emails, which mail clients read as HTML.
 */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
