import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialogProvider, useConfirm, type Confirm } from './confirm-dialog';

const setup = (): { confirm: Confirm } => {
  let captured: Confirm | undefined;
  function Capture() {
    captured = useConfirm();
    return null;
  }
  render(
    <ConfirmDialogProvider>
      <Capture />
    </ConfirmDialogProvider>,
  );
  return {
    confirm: (options) => {
      if (!captured) throw new Error('not rendered');
      captured(options);
    },
  };
};

describe('ConfirmDialogProvider', () => {
  it('shows the default title and body', () => {
    const { confirm } = setup();
    act(() => confirm());
    const dialog = screen.getByRole('dialog', { name: 'Are you sure?' });
    expect(dialog).toHaveAccessibleDescription('This operation requires your second confirmation.');
  });

  it('shows no buttons when no callbacks exist', () => {
    const { confirm } = setup();
    act(() => confirm({ title: 'Pickup Submitted' }));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows OK only with onOk and Cancel only with onCancel', () => {
    const { confirm } = setup();
    act(() => confirm({ onOk: vi.fn() }));
    expect(screen.getByRole('button', { name: 'OK' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();

    act(() => confirm({ onCancel: vi.fn() }));
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'OK' })).not.toBeInTheDocument();
  });

  it('OK runs onOk once and closes', async () => {
    const { confirm } = setup();
    const onOk = vi.fn();
    const onCancel = vi.fn();
    act(() =>
      confirm({
        title: 'Are you sure you want to logout?',
        body: 'Once you quit, you will need to sign in again to use the service.',
        onOk,
        onCancel,
      }),
    );
    expect(screen.getByRole('dialog', { name: 'Are you sure you want to logout?' })).toHaveAccessibleDescription(
      'Once you quit, you will need to sign in again to use the service.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(onOk).toHaveBeenCalledTimes(1);
    expect(onCancel).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('Cancel and Escape run onCancel and close', async () => {
    const { confirm } = setup();
    const onOk = vi.fn();
    const onCancel = vi.fn();
    act(() => confirm({ onOk, onCancel }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    act(() => confirm({ onOk, onCancel }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(onCancel).toHaveBeenCalledTimes(2);
    expect(onOk).not.toHaveBeenCalled();
  });
});
