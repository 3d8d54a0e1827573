import { describe, expect, it } from 'vitest';
import { escapeHtml } from './html';

describe('escapeHtml', () => {
  it('turns markup into text', () => {
    expect(escapeHtml(`<a href="https://evil.example/login">Verify here</a><!--`)).toBe('&lt;a href=&quot;https://evil.example/login&quot;&gt;Verify here&lt;/a&gt;&lt;!--');
  });

  it('escapes an ampersand once and keeps letters of any alphabet', () => {
    expect(escapeHtml("Tom & Zoë O'Brien — Māori")).toBe('Tom &amp; Zoë O&#39;Brien — Māori');
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });
});
