import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';

/** A shell's Menu button, open at first, hides the main menu and shows it again (farmer and partner shells alike). */
export const expectMenuToggleHidesMenu = async (user: UserEvent): Promise<void> => {
  const toggle = screen.getByRole('button', { name: 'Menu' });
  expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await user.click(toggle);
  expect(toggle).toHaveAttribute('aria-expanded', 'false');
  expect(screen.queryByRole('navigation', { name: 'Main menu' })).not.toBeInTheDocument();
  await user.click(toggle);
  expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeInTheDocument();
};
